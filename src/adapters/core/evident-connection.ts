import type { PendingAction } from '../../domain/approval.ts';
import type { Answer } from '../../domain/answer.ts';
import type { SearchResultJson } from '../../retrieval/search-result-json.ts';

/** The agent asked when none is named: the one `evident ask` uses. */
export const DEFAULT_ADAPTER_AGENT = 'rag';

/** What a framework adapter may ask of a search: how many results, and which channels. */
export interface AdapterSearchOptions {
  topK?: number;
  channels?: ('bm25' | 'vector')[];
}

/** Which agent answers, and the own thread to continue (a new thread when absent). */
export interface AdapterAskOptions {
  agent?: string;
  threadId?: string;
}

/**
 * How an ask ended, in the shape of the OpenAI surface's `evident` extension: the answer contract (when the run has
 * one), the run's status and ids, and, with status `interrupted`, the side effect that waits for an approval. The
 * adapters never decide an approval: an authorised person does, through the CLI, the web UI or the LangGraph API.
 */
export type AskResultJson = Partial<Answer> & {
  status: string;
  thread_id: string;
  run_id: string;
  pending_action?: PendingAction;
};

/**
 * The one port the LangChain and AI SDK adapters reach Evident through, bound to one principal: in process (an
 * `Evident` and a principal) or over HTTP (a server's URL and the principal's API key). Both return what
 * `POST /v1/search` and `/v1/chat/completions` return, so an adapter behaves the same either way.
 */
export interface EvidentConnection {
  /** Where this connection reaches Evident (`in-process` or the server's URL), for messages and traces. */
  readonly target: string;
  /** Hybrid search as the bound principal: only chunks they may read, with the scores they may see. */
  search(query: string, options?: AdapterSearchOptions): Promise<SearchResultJson[]>;
  /** One run of an agent through the one run engine, as the bound principal, followed to its end. */
  ask(question: string, options?: AdapterAskOptions): Promise<AskResultJson>;
}
