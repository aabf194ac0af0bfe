/**
 * Evident as a row set of bench/peers/run.ts: the documents ingested through the composition root (`ingestRecords`,
 * one call, the defaults: worker threads, batched transactions, extras), searched through the Store port (keyword:
 * `analyzeQueryOccurrences` + `keywordSearch`; vector: `vectorSearch`; hybrid: both + `reciprocalRankFusion`, k = 60)
 * and through `HybridSearch.search` (what `evident search` runs, without rerank). Chunk hits become doc ids, first
 * occurrence kept, as every BEIR score here counts documents.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.ts';
import type { Principal } from '../../src/domain/index.ts';
import { createEvident, type Evident } from '../../src/evident.ts';
import { reciprocalRankFusion } from '../../src/retrieval/fuse.ts';
import { analyzeQueryOccurrences } from '../../src/text/analyzer.ts';
import { RRF_K, timed, type PeerDocument, type PeerEngine } from './peer-engines.ts';

/** Every BEIR document is public; a member with no groups still gets the ACL filter inside every query. */
const READER: Principal = { id: 'bench-peers', groups: [], roles: ['member'] };

const docOf = (chunkId: string) => chunkId.slice(0, chunkId.lastIndexOf('#'));
const docIds = (chunkIds: readonly string[]) => [...new Set(chunkIds.map(docOf))];

export interface EvidentPeers {
  evident: Evident;
  /** Store-port rows. */
  store: PeerEngine;
  /** `HybridSearch.search` rows. */
  pipeline: PeerEngine;
  /** The embedder's vectors of `docs` (title and text), for the peers. */
  embedDocuments(docs: readonly PeerDocument[]): Promise<Float32Array[]>;
  embedQuery(query: string): Promise<Float32Array>;
}

export async function evidentPeers(docs: readonly PeerDocument[]): Promise<EvidentPeers> {
  const folder = mkdtempSync(join(tmpdir(), 'evident-peers-'));
  const evident = await createEvident(loadConfig({ flags: { db: join(folder, 'bench.db') }, env: {}, cwd: folder }));
  const {
    value: summary,
    ms,
    cpuMs,
  } = await timed(() =>
    evident.ingestor.ingestRecords(
      docs.map((doc) => ({ docId: doc.id, title: doc.title, text: doc.text, source: `beir:${doc.id}` })),
    ),
  );
  if (summary.failed > 0) process.stderr.write(`evident: ${summary.failed} documents failed to ingest\n`);
  // Worker threads end now rather than when idle, so the query loop shares the machine with nothing of the build.
  await evident.ingestor.close();
  const label = `Evident (SQLite, ${evident.embedder.id}, ${summary.chunks} chunks)`;
  const keyword = async (query: string, k: number) =>
    evident.store.keywordSearch(analyzeQueryOccurrences(query), READER, k);
  const vector = async (query: Float32Array, k: number) => evident.store.vectorSearch(query, READER, k);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await evident.close();
    rmSync(folder, { recursive: true, force: true });
  };
  const store: PeerEngine = {
    name: `${label}: Store port`,
    buildMs: ms,
    buildCpuMs: cpuMs,
    keyword: async (query, k) => docIds((await keyword(query, k)).map((hit) => hit.chunkId)),
    vector: async (query, k) => docIds((await vector(query, k)).map((hit) => hit.chunkId)),
    hybrid: async (query, queryVector, k) => {
      const [bm25, vectorHits] = await Promise.all([keyword(query, k), vector(queryVector, k)]);
      const fused = reciprocalRankFusion({ bm25, vector: vectorHits }, { k: RRF_K });
      return docIds(fused.slice(0, k).map((candidate) => candidate.chunkId));
    },
    close,
  };
  const search = async (query: string, k: number, channels: ('bm25' | 'vector')[]) => [
    ...new Set(
      (await evident.search.search(query, READER, { channels, rerank: false, topK: k, channelDepth: k })).results.map(
        (result) => result.chunk.docId,
      ),
    ),
  ];
  const pipeline: PeerEngine = {
    name: `${label}: HybridSearch.search, no rerank (query analysis and embedding inside)`,
    buildMs: ms,
    buildCpuMs: cpuMs,
    keyword: (query, k) => search(query, k, ['bm25']),
    hybrid: (query, _vector, k) => search(query, k, ['bm25', 'vector']),
    close,
  };
  const embed = (texts: readonly string[], kind: 'query' | 'document') => evident.embedder.embed(texts, kind);
  return {
    evident,
    store,
    pipeline,
    embedDocuments: (list) =>
      embed(
        list.map((doc) => [doc.title, doc.text].filter(Boolean).join('\n')),
        'document',
      ),
    embedQuery: async (query) => (await embed([query], 'query'))[0] as Float32Array,
  };
}
