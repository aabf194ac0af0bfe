import type { Principal } from '../../../domain/index.ts';
import type { HybridSearch } from '../../../retrieval/hybrid-search.ts';
import { analyzeQuery } from '../../../text/analyzer.ts';
import type { ChunkWithSource, DocumentStore } from '../../../store/store.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { ToolCallRecord } from '../../../domain/step.ts';
import { evidenceFrom } from '../../core/evidence-from.ts';
import type { ContextItem, RetrievalTool } from '../controllable-state.ts';

/** What a retrieval tool returns: the items it found and the chunks they lead back to (the citable evidence). */
export interface RetrievalOutput {
  items: ContextItem[];
  evidence: Evidence[];
  call: ToolCallRecord;
}

export interface RetrievalToolDeps {
  search: HybridSearch;
  store: DocumentStore;
  topK: number;
}

/** Chunks a chapter summary brings along as evidence: the first few of its chapter. */
const CHUNKS_PER_SUMMARY = 3;

const toEvidence = (chunk: ChunkWithSource, score: number, query: string): Evidence =>
  evidenceFrom(chunk, score, [query]);

async function retrieveChunks(query: string, principal: Principal, deps: RetrievalToolDeps) {
  const trace = await deps.search.search(query, principal, { topK: deps.topK });
  const evidence = trace.results.map((result) =>
    toEvidence({ ...result.chunk, source: result.source, title: result.title }, result.score, query),
  );
  const items: ContextItem[] = evidence.map((item) => ({
    id: item.chunk_id,
    kind: 'chunk',
    doc_id: item.doc_id,
    title: [item.title, item.heading].filter(Boolean).join(' › '),
    text: item.text,
    chunk_ids: [item.chunk_id],
    query,
  }));
  return { items, evidence };
}

/** The chunks behind summary or quote hits, read again through the principal filter, scored by their hit's rank. */
async function evidenceFor(
  hits: readonly { chunkIds: readonly string[]; rank: number }[],
  principal: Principal,
  query: string,
  store: DocumentStore,
): Promise<Evidence[]> {
  const wanted = [...new Set(hits.flatMap((hit) => hit.chunkIds))];
  const chunks = new Map((await store.getChunks(wanted, principal)).map((chunk) => [chunk.id, chunk]));
  const out = new Map<string, Evidence>();
  for (const hit of hits) {
    for (const id of hit.chunkIds) {
      const chunk = chunks.get(id);
      if (chunk && !out.has(id)) out.set(id, toEvidence(chunk, 1 / (60 + hit.rank), query));
    }
  }
  return [...out.values()];
}

async function retrieveSummaries(query: string, principal: Principal, deps: RetrievalToolDeps) {
  const hits = await deps.store.searchSummaries(analyzeQuery(query), principal, deps.topK);
  const items: ContextItem[] = hits.map((hit) => ({
    id: hit.id,
    kind: 'summary',
    doc_id: hit.docId,
    title: [hit.docTitle, hit.title].filter(Boolean).join(' › '),
    text: hit.text,
    chunk_ids: hit.chunkIds.slice(0, CHUNKS_PER_SUMMARY),
    query,
  }));
  const evidence = await evidenceFor(
    items.map((item, i) => ({ chunkIds: item.chunk_ids, rank: i + 1 })),
    principal,
    query,
    deps.store,
  );
  return { items, evidence };
}

async function retrieveQuotes(query: string, principal: Principal, deps: RetrievalToolDeps) {
  const hits = await deps.store.searchQuotes(analyzeQuery(query), principal, deps.topK);
  const items: ContextItem[] = hits.map((hit) => ({
    id: hit.id,
    kind: 'quote',
    doc_id: hit.docId,
    title: hit.docTitle,
    text: hit.text,
    chunk_ids: [hit.chunkId],
    query,
  }));
  const evidence = await evidenceFor(
    hits.map((hit) => ({ chunkIds: [hit.chunkId], rank: hit.rank })),
    principal,
    query,
    deps.store,
  );
  return { items, evidence };
}

const TOOLS: Record<RetrievalTool, typeof retrieveChunks> = {
  retrieve_chunks: retrieveChunks,
  retrieve_summaries: retrieveSummaries,
  retrieve_quotes: retrieveQuotes,
};

/**
 * Runs one retrieval tool as the principal. Every tool reads through the store's principal filter (search, summary
 * and quote indexes, and the chunks behind a hit), so nothing the principal may not see comes back.
 */
export async function runRetrievalTool(
  tool: RetrievalTool,
  query: string,
  principal: Principal,
  deps: RetrievalToolDeps,
): Promise<RetrievalOutput> {
  const started = performance.now();
  const { items, evidence } = await TOOLS[tool](query, principal, deps);
  const call: ToolCallRecord = {
    name: tool,
    arguments: { query },
    result_summary: `${items.length} ${tool.replace('retrieve_', '')}: ${items.map((item) => item.id).join(', ') || 'none'}`,
    ok: true,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
  };
  return { items, evidence, call };
}
