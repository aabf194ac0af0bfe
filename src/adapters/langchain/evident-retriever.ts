import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import type { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { connectEvident, type EvidentTarget } from '../core/connect-evident.ts';
import type { AdapterSearchOptions, EvidentConnection } from '../core/evident-connection.ts';
import { evidentDocument, type EvidentDocumentMetadata } from './evident-document.ts';

export type EvidentRetrieverFields = EvidentTarget & BaseRetrieverInput & AdapterSearchOptions;

/**
 * Evident's hybrid search as a LangChain retriever, bound to one principal: in process
 * (`{ evident, user }` or `{ evident, principal }`) or over HTTP (`{ url, apiKey }`). Each passage is a Document whose
 * id is its chunk_id and whose metadata says where it is and how it ranked.
 */
export class EvidentRetriever extends BaseRetriever<EvidentDocumentMetadata> {
  static override lc_name(): string {
    return 'EvidentRetriever';
  }

  lc_namespace = ['evident', 'retrievers'];

  private readonly connection: EvidentConnection;
  private readonly search: AdapterSearchOptions;

  constructor(fields: EvidentRetrieverFields) {
    // Only LangChain's own fields go to the base class: it keeps them for serialization, and a key or a store must not be.
    super({
      ...(fields.callbacks ? { callbacks: fields.callbacks } : {}),
      ...(fields.tags ? { tags: fields.tags } : {}),
      ...(fields.metadata ? { metadata: fields.metadata } : {}),
      ...(fields.verbose !== undefined ? { verbose: fields.verbose } : {}),
    });
    this.connection = connectEvident(fields, 'langchain');
    this.search = {
      ...(fields.topK ? { topK: fields.topK } : {}),
      ...(fields.channels ? { channels: fields.channels } : {}),
    };
  }

  override async _getRelevantDocuments(
    query: string,
    _runManager?: CallbackManagerForRetrieverRun,
  ): Promise<Document<EvidentDocumentMetadata>[]> {
    const results = await this.connection.search(query, this.search);
    return results.map(evidentDocument);
  }
}
