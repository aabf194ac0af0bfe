import type { ChannelHit, ChannelName, Principal, SearchResult } from '../domain/index.ts';
import type { RetrievalSettings } from '../config/schema.ts';
import { ValidationError } from '../errors/index.ts';
import type { Embedder } from '../models/embedder.ts';
import type { Reranker } from '../models/reranker.ts';
import type { ChunkWithSource, DocumentStore } from '../store/ports/document-store.ts';
import type { Attributes, Span } from '@opentelemetry/api';
import { inSpan, inSyncSpan } from '../telemetry/in-span.ts';
import { questionAttributes } from '../telemetry/run-span.ts';
import { analyzeQueryOccurrences, indexTermsInclude } from '../text/analyzer.ts';
import { dedupeCandidates } from './dedupe.ts';
import { reciprocalRankFusion, type FusedCandidate } from './fuse.ts';
import { chunkSearchText } from './search-text.ts';

export interface SearchOptions {
  topK?: number;
  channels?: ChannelName[];
  rerank?: boolean;
  rrfK?: number;
  channelDepth?: number;
  rerankDepth?: number;
}

export interface SearchTrace {
  query: string;
  /** The analysed keyword terms the BM25 channel used. */
  terms: string[];
  results: SearchResult[];
  /** Each channel's own ranking, as the store returned it (already filtered for the principal). */
  channels: { bm25?: ChannelHit[]; vector?: ChannelHit[] };
  timingsMs: Record<string, number>;
}

export interface HybridSearchDeps {
  store: DocumentStore;
  embedder: Embedder;
  reranker?: Reranker;
  defaults: RetrievalSettings;
}

/**
 * Keyword ∥ vector → reciprocal rank fusion → dedupe → optional rerank → top K. The principal is passed to every
 * store call, which filters inside its queries, so nothing the principal may not see enters any stage. With tracing
 * on, a search is a span (`search`) with a child per stage (`retrieval bm25`, `… vector`, `… fuse`, `… fetch`,
 * `… dedupe`, `… rerank`) carrying its result counts; the query only when questions are recorded.
 */
export class HybridSearch {
  constructor(private readonly deps: HybridSearchDeps) {}

  search(query: string, principal: Principal, options: SearchOptions = {}): Promise<SearchTrace> {
    return inSpan('search', async (span) => {
      const trace = await this.run(query, principal, options, span);
      span?.setAttributes({ ...questionAttributes(query), 'evident.retrieval.result_count': trace.results.length });
      return trace;
    });
  }

  private async run(
    query: string,
    principal: Principal,
    options: SearchOptions,
    span: Span | undefined,
  ): Promise<SearchTrace> {
    if (typeof query !== 'string' || query.trim() === '') {
      throw new ValidationError('The search query is empty.', { hint: 'Pass a question or keywords to search for.' });
    }
    const { store, embedder, reranker, defaults } = this.deps;
    const topK = positiveInt('topK', options.topK ?? defaults.topK);
    const channelDepth = positiveInt('channelDepth', options.channelDepth ?? defaults.channelDepth);
    const rerankDepth = positiveInt('rerankDepth', options.rerankDepth ?? defaults.rerankDepth);
    const rrfK = options.rrfK ?? defaults.rrfK;
    if (!(rrfK > 0)) throw new ValidationError(`rrfK must be positive, got ${rrfK}.`);
    const channels = new Set(options.channels ?? defaults.channels);
    if (channels.size === 0)
      throw new ValidationError('No retrieval channel selected.', { hint: 'Use bm25, vector or both.' });
    const useReranker = (options.rerank ?? true) ? reranker : undefined;
    span?.setAttributes({
      'evident.retrieval.top_k': topK,
      'evident.retrieval.channels': [...channels],
      'evident.retrieval.channel_depth': channelDepth,
      'evident.retrieval.rerank': useReranker !== undefined,
    });

    const timingsMs: Record<string, number> = {};
    /** A stage's time for the trace, and its span (`retrieval <stage>`) with the count `count` reads of its result. */
    const timed = <T>(stage: string, run: () => Promise<T>, count: (result: T) => number): Promise<T> =>
      inSpan(
        `retrieval ${stage}`,
        async (span) => {
          const started = performance.now();
          try {
            const result = await run();
            span?.setAttribute('evident.retrieval.result_count', count(result));
            return result;
          } finally {
            timingsMs[stage] = round(performance.now() - started);
          }
        },
        STAGE_ATTRIBUTES[stage],
      );
    const started = performance.now();

    // The keyword channel gets every occurrence: a term the query repeats weighs more, as in FTS5's own bm25(). The
    // query is analysed once; the distinct terms (analyzeQuery's result) come from the same list.
    const occurrences = analyzeQueryOccurrences(query);
    const terms = [...new Set(occurrences)];
    // The vector channel's store call is issued first and the keyword channel's right after it: a store whose vector
    // scan runs on helper threads (SQLite at scale) then ranks the keywords on this thread while they scan, instead of
    // one channel after the other. The keyword channel waits for the query's embedding only.
    let vectorIssued = (): void => undefined;
    const issued = new Promise<void>((resolve) => {
      vectorIssued = resolve;
    });
    const vectorRun = channels.has('vector')
      ? timed(
          'vector',
          async () => {
            try {
              const [queryVector] = await embedder.embed([query], 'query');
              if (!queryVector) return [];
              const found = store.vectorSearch(queryVector, principal, channelDepth);
              vectorIssued();
              return await found;
            } finally {
              vectorIssued();
            }
          },
          countOf,
        )
      : undefined;
    if (!vectorRun) vectorIssued();
    const bm25Run = channels.has('bm25')
      ? issued.then(() => timed('bm25', () => store.keywordSearch(occurrences, principal, channelDepth), countOf))
      : undefined;
    const [bm25, vector] = await Promise.all([bm25Run, vectorRun]);

    // A query naming an exact identifier is the keyword channel's case: a vector channel (which sees
    // `CT-2024-0193` and `CT-2024-0194` as near-identical) must not outvote an exact match.
    const weights = terms.some((term) => IDENTIFIER_TERM.test(term)) ? { vector: IDENTIFIER_VECTOR_WEIGHT } : {};
    const fused = inSyncSpan('retrieval fuse', (fuseSpan) => {
      const candidates = reciprocalRankFusion(
        { ...(bm25 ? { bm25 } : {}), ...(vector ? { vector } : {}) },
        { k: rrfK, weights },
      );
      fuseSpan?.setAttributes({
        'evident.retrieval.channel': 'fuse',
        'evident.retrieval.result_count': candidates.length,
      });
      return candidates;
    });
    // Enough candidates that dedupe losses cannot starve the reranker or the top K.
    const pool = fused.slice(0, Math.max(useReranker ? rerankDepth : topK, topK) * 2);
    const chunks = await timed(
      'fetch',
      () =>
        // With each chunk's stored analysed form, where the store keeps one: dedupe and the offline reranker read it
        // instead of the text.
        store.getChunks(
          pool.map((candidate) => candidate.chunkId),
          principal,
          { analysed: true },
        ),
      countOf,
    );
    const byId = new Map(chunks.map((chunk) => [chunk.id, chunk]));
    // A chunk the store no longer returns for this principal (deleted meanwhile) is dropped, never shown.
    const visible = pool.filter((candidate) => byId.has(candidate.chunkId));
    const identifierTerms = terms.filter((term) => IDENTIFIER_TERM.test(term));
    // Only the survivors the reranker or the top K take are wanted, unless identifiers may move a document's chunks.
    const keep = identifierTerms.length > 0 ? undefined : useReranker ? Math.max(rerankDepth, topK) : topK;
    const { kept } = inSyncSpan('retrieval dedupe', (dedupeSpan) => {
      const deduped = dedupeCandidates(visible, (id) => byId.get(id)?.text, {
        formOf: (id) => byId.get(id)?.analysed,
        ...(keep === undefined ? {} : { keep }),
      });
      dedupeSpan?.setAttributes({
        'evident.retrieval.channel': 'dedupe',
        'evident.retrieval.input_count': visible.length,
        'evident.retrieval.result_count': deduped.kept.length,
      });
      return deduped;
    });

    let ranked: { candidate: FusedCandidate; rerankScore?: number }[] = kept.map((candidate) => ({ candidate }));
    if (useReranker && kept.length > 0) {
      const head = kept.slice(0, rerankDepth);
      const scores = await timed(
        'rerank',
        () =>
          useReranker.rerank(
            query,
            head.map((candidate) => {
              const chunk = byId.get(candidate.chunkId) as ChunkWithSource;
              return {
                id: candidate.chunkId,
                text: chunkSearchText(chunk),
                retrievalScore: candidate.score,
                ...(chunk.analysed ? { analysed: chunk.analysed } : {}),
              };
            }),
          ),
        countOf,
      );
      const reranked = head
        .map((candidate, i) => ({ candidate, rerankScore: scores[i] ?? Number.NEGATIVE_INFINITY, order: i }))
        .sort((a, b) => b.rerankScore - a.rerankScore || a.order - b.order)
        .map(({ candidate, rerankScore }) => ({ candidate, rerankScore }));
      ranked = [...reranked, ...kept.slice(rerankDepth).map((candidate) => ({ candidate }))];
    }

    ranked = preferStatedIdentifiers(ranked, identifierTerms, byId, topK);

    const results: SearchResult[] = ranked.slice(0, topK).map(({ candidate, rerankScore }, i) => {
      const chunk = byId.get(candidate.chunkId) as ChunkWithSource;
      const { source, title, analysed: _analysed, ...plain } = chunk;
      return {
        rank: i + 1,
        chunk: plain,
        source,
        title,
        score: candidate.score,
        channels: candidate.channels,
        ...(rerankScore === undefined ? {} : { rerankScore }),
      };
    });
    timingsMs.total = round(performance.now() - started);
    return {
      query,
      terms,
      results,
      channels: { ...(bm25 ? { bm25 } : {}), ...(vector ? { vector } : {}) },
      timingsMs,
    };
  }
}

/** Each stage span's fixed attribute, built once. */
const STAGE_ATTRIBUTES: Record<string, Attributes> = Object.fromEntries(
  ['bm25', 'vector', 'fetch', 'rerank'].map((stage) => [stage, { 'evident.retrieval.channel': stage }]),
);
const countOf = (items: readonly unknown[]): number => items.length;

/** Analysed terms that name an identifier: compounds (`ct_2024_0193`, `v2.1.3`, `$500k`), numbers, hex prefixes. */
const IDENTIFIER_TERM = /[_$.*]|\d/;
/** RRF weight of the vector channel for identifier queries (1 otherwise). */
const IDENTIFIER_VECTOR_WEIGHT = 0.25;

/**
 * A document's title and headings are part of every chunk's search text, so every chunk of `CT-2024-0193.md` matches
 * `CT-2024-0193`. Within each document, chunks whose own text states the query's identifiers take the places that
 * document holds in the ranking first; other documents' places do not move. Only the first `shown` places are
 * returned to anyone, so a document whose first place is past them is left as it is: its chunks' texts, analysed
 * to find the identifier, would change nothing shown.
 */
function preferStatedIdentifiers<T extends { candidate: FusedCandidate }>(
  ranked: T[],
  identifierTerms: readonly string[],
  byId: ReadonlyMap<string, ChunkWithSource>,
  shown: number,
): T[] {
  if (identifierTerms.length === 0) return ranked;
  const states = (entry: T): boolean =>
    indexTermsInclude(byId.get(entry.candidate.chunkId)?.text ?? '', identifierTerms);
  const slots = new Map<string, number[]>();
  ranked.forEach((entry, i) => {
    const docId = byId.get(entry.candidate.chunkId)?.docId ?? '';
    const list = slots.get(docId);
    if (list) list.push(i);
    else slots.set(docId, [i]);
  });
  const out = [...ranked];
  for (const positions of slots.values()) {
    if (positions.length < 2 || (positions[0] as number) >= shown) continue;
    const entries = positions.map((i) => ranked[i] as T);
    const stated = entries.filter(states);
    if (stated.length === 0 || stated.length === entries.length) continue;
    const reordered = [...stated, ...entries.filter((entry) => !stated.includes(entry))];
    positions.forEach((position, k) => {
      out[position] = reordered[k] as T;
    });
  }
  return out;
}

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0)
    throw new ValidationError(`${name} must be a positive integer, got ${value}.`);
  return value;
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
