import { isAdmin, type Principal } from '../../../domain/index.ts';
import type { SearchTrace } from '../../../retrieval/hybrid-search.ts';
import { retrieveChain, type HopRecord } from '../../offline-qa/bridge-chain.ts';
import { decomposeHops } from '../../offline-qa/decompose-offline-hops.ts';
import type { Candidate } from '../../../domain/evidence.ts';
import type { RagDeps, RagNode } from '../rag-deps.ts';
import type { HopChain } from '../rag-state.ts';

const RRF_K = 60;
/** Chain states kept after each hop: the bridges tried per later hop. */
export const BRIDGE_BEAM = 2;
/** Resolved last hops judged beside the question itself. */
const RESOLVED_JUDGED = 2;

interface Passage {
  chunk_id: string;
  title: string;
  text: string;
  rank: number;
  score: number;
}

const passagesOf = (trace: SearchTrace): Passage[] =>
  trace.results.map((result) => ({
    chunk_id: result.chunk.id,
    title: result.title,
    text: result.chunk.text,
    rank: result.rank,
    score: result.score,
  }));

function channelCandidates(query: string, trace: SearchTrace, principal: Principal, topK: number): Candidate[] {
  const candidates: Candidate[] = [];
  for (const channel of ['bm25', 'vector'] as const) {
    for (const hit of (trace.channels[channel] ?? []).slice(0, topK)) {
      // A raw channel score (BM25) rests on statistics of documents the principal may not read: non-admins keep its rank.
      candidates.push({
        query,
        channel,
        chunk_id: hit.chunkId,
        rank: hit.rank,
        score: isAdmin(principal) ? hit.score : 1 / hit.rank,
      });
    }
  }
  for (const result of trace.results)
    candidates.push({ query, channel: 'fused', chunk_id: result.chunk.id, rank: result.rank, score: result.score });
  return candidates;
}

/** Several searches of one hop (one per bridge tried) as one fused list, each weighted by its chain's weight. */
function fuseHop(
  query: string,
  lists: readonly { weight: number; hits: readonly Passage[] }[],
  topK: number,
): Candidate[] {
  const scores = new Map<string, number>();
  for (const list of lists)
    for (const hit of list.hits)
      scores.set(hit.chunk_id, (scores.get(hit.chunk_id) ?? 0) + list.weight / (RRF_K + hit.rank));
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topK)
    .map(([chunk_id, score], i) => ({ query, channel: 'fused', chunk_id, rank: i + 1, score }));
}

/**
 * A compositional question offline: its hops are searched in order, each later hop with the bridge entities its
 * predecessor's evidence names (offline-qa/bridge-chain.ts). Each hop's searches fuse into one ranking, so the last
 * hop's passage, which shares no words with the question's named things, reaches the evidence beside the first hop's.
 */
async function chainCandidates(question: string, hops: string[], principal: Principal, deps: RagDeps) {
  const traces = new Map<string, SearchTrace>();
  const chain = await retrieveChain(
    question,
    hops,
    async (query) => {
      const trace = await deps.search.search(query, principal, { topK: deps.topK });
      traces.set(query, trace);
      return passagesOf(trace);
    },
    { beam: BRIDGE_BEAM },
  );
  const candidates: Candidate[] = [];
  chain.hops.forEach((record, index) => {
    const lists = chain.lists.filter((list) => list.hop === index);
    const label =
      index === hops.length - 1 ? (chain.resolved[0] ?? record.queries[0] ?? '') : (record.queries[0] ?? '');
    candidates.push(...fuseHop(label, lists, deps.topK));
  });
  return { candidates, chain, traces: traces.size };
}

/**
 * Hybrid search per sub-question, as the asking principal (the store filters inside its queries). Each channel's
 * hits and the fused ranking are recorded as candidates; the merge step reads the fused ones. Offline, a sub-question
 * that nests another ("the spouse of the director of X") is also retrieved hop by hop through its bridge entities; the
 * chain is recorded in `hop_chains`, and the resolved last hop joins the sub-questions the evidence is judged against.
 */
export const retrieve: RagNode = async (state, deps) => {
  const principal = state.principal;
  if (!principal) throw new Error('rag: retrieve needs the principal');
  const queries = state.sub_questions.length > 0 ? state.sub_questions : [state.standalone_question || state.question];
  // The model path decomposes with the model; the bridge chain is the offline strategy.
  const plans = deps.chat
    ? []
    : queries.map((query) => ({ query, hops: decomposeHops(query) })).filter((plan) => plan.hops.length > 1);
  // The chains' first hops do not wait for the plain searches.
  const [traces, chains] = await Promise.all([
    Promise.all(queries.map((query) => deps.search.search(query, principal, { topK: deps.topK }))),
    Promise.all(plans.map((plan) => chainCandidates(plan.query, plan.hops, principal, deps))),
  ]);
  const candidates: Candidate[] = [];
  traces.forEach((trace, i) =>
    candidates.push(...channelCandidates(queries[i] as string, trace, principal, deps.topK)),
  );
  const summaries = traces.map((trace, i) => `"${queries[i]}" → ${trace.results.length}`);
  const hopChains: HopChain[] = [];
  const judged = [...queries];
  chains.forEach((found, i) => {
    const plan = plans[i] as { query: string; hops: string[] };
    candidates.push(...found.candidates);
    hopChains.push({ question: plan.query, hops: found.chain.hops.map(toHopState), resolved: found.chain.resolved });
    for (const resolved of found.chain.resolved.slice(0, RESOLVED_JUDGED))
      if (!judged.includes(resolved)) judged.push(resolved);
    summaries.push(
      `${plan.hops.length} hops: ${found.chain.hops.map((hop) => `${hop.queries[0]}${hop.bridges[0] ? ` ⇒ ${hop.bridges[0].text}` : ''}`).join(' → ')} (${found.traces} searches)`,
    );
  });
  const update =
    hopChains.length > 0
      ? { candidates, hop_chains: hopChains, sub_questions: judged }
      : { candidates, hop_chains: hopChains };
  return { update, summary: summaries.join('; ') };
};

const toHopState = (record: HopRecord): HopChain['hops'][number] => ({
  hop: record.hop,
  queries: record.queries,
  bridges: record.bridges,
});
