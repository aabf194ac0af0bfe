import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { END, START, StateGraph } from '@langchain/langgraph';
import { answerDirectly } from './nodes/answer-directly.ts';
import { checkAnswerability } from './nodes/check-answerability.ts';
import { citationCheck } from '../core/nodes/citation-check.ts';
import { combineAnswers } from './nodes/combine-answers.ts';
import { decompose } from './nodes/decompose.ts';
import { evidenceGate } from '../core/nodes/evidence-gate.ts';
import { finalize } from '../core/nodes/finalize.ts';
import { generate } from './nodes/generate.ts';
import { memoryToSave } from '../core/memory/remember-intent.ts';
import { loadMemory } from '../core/nodes/load-memory.ts';
import { mergeRerank } from './nodes/merge-rerank.ts';
import type { RagDeps, RagNode } from './rag-deps.ts';
import { refuse } from './nodes/refuse.ts';
import { retrieve } from './nodes/retrieve.ts';
import { rewrite } from '../core/nodes/rewrite.ts';
import { routeQuestion } from './nodes/route-question.ts';
import { saveRequestedMemory } from '../core/nodes/save-memory.ts';
import { tableQuery } from './nodes/table-query.ts';
import { traced } from '../core/traced.ts';
import { RagState, ragRunStart, type RagStateType } from './rag-state.ts';

/** On the `both` route with a table answer, the text's answer (or refusal) is joined to it before finalize. */
const joinsTable = (state: RagStateType): boolean => state.route === 'both' && state.table_answer !== null;

/**
 * The `rag` graph: load_memory ⇒ (save_memory, after an approval | rewrite → decompose → route_question ⇒ (table_query [⇒ retrieve on the both route] | retrieve → merge_rerank →
 * check_answerability ⇒ (generate → citation_check ⇒ (retry generate | finalize) | refuse) [→ combine_answers on the both route] | answer_directly) → finalize.
 * The wiring is the same with and without a chat model; only the nodes' strategies differ.
 */
export function buildRagGraph(deps: RagDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const node = (name: string, fn: RagNode) => traced(name, fn, deps);
  const graph = new StateGraph(RagState)
    .addNode('load_memory', node('load_memory', loadMemory(ragRunStart)))
    .addNode('rewrite', node('rewrite', rewrite))
    .addNode('decompose', node('decompose', decompose))
    .addNode('route_question', node('route_question', routeQuestion))
    .addNode('table_query', node('table_query', tableQuery))
    .addNode('answer_directly', node('answer_directly', answerDirectly))
    .addNode('retrieve', node('retrieve', retrieve))
    .addNode('merge_rerank', node('merge_rerank', mergeRerank))
    .addNode('check_answerability', node('check_answerability', checkAnswerability))
    .addNode('generate', node('generate', generate))
    .addNode('citation_check', node('citation_check', citationCheck))
    .addNode('refuse', node('refuse', refuse))
    .addNode('save_memory', node('save_memory', saveRequestedMemory))
    .addNode('combine_answers', node('combine_answers', combineAnswers))
    .addNode('evidence_gate', node('evidence_gate', evidenceGate))
    .addNode('finalize', node('finalize', finalize))
    .addEdge(START, 'load_memory')
    // "Remember that …" is a side effect, not a question: it waits for an approval in save_memory.
    .addConditionalEdges('load_memory', (state) => (memoryToSave(state.question) ? 'remember' : 'ask'), {
      remember: 'save_memory',
      ask: 'rewrite',
    })
    .addEdge('save_memory', 'evidence_gate')
    .addEdge('rewrite', 'decompose')
    .addEdge('decompose', 'route_question')
    .addConditionalEdges('route_question', (state) => state.route, {
      table: 'table_query',
      both: 'table_query',
      retrieve: 'retrieve',
      direct: 'answer_directly',
    })
    // A failed table query falls back to retrieval rather than guessing; on the `both` route the text is retrieved too.
    .addConditionalEdges('table_query', (state) => (state.answer && state.route !== 'both' ? 'answered' : 'retrieve'), {
      answered: 'evidence_gate',
      retrieve: 'retrieve',
    })
    .addEdge('retrieve', 'merge_rerank')
    .addEdge('merge_rerank', 'check_answerability')
    .addConditionalEdges(
      'check_answerability',
      (state) => (state.answerability?.answerable ? 'sufficient' : 'insufficient'),
      {
        sufficient: 'generate',
        insufficient: 'refuse',
      },
    )
    .addEdge('generate', 'citation_check')
    .addConditionalEdges(
      'citation_check',
      (state) => (state.answer ? (joinsTable(state) ? 'combine' : 'done') : 'retry'),
      {
        done: 'evidence_gate',
        combine: 'combine_answers',
        retry: 'generate',
      },
    )
    .addConditionalEdges('refuse', (state) => (joinsTable(state) ? 'combine' : 'done'), {
      combine: 'combine_answers',
      done: 'evidence_gate',
    })
    .addEdge('combine_answers', 'evidence_gate')
    .addEdge('answer_directly', 'evidence_gate')
    .addEdge('evidence_gate', 'finalize')
    .addEdge('finalize', END);
  return graph.compile(options.checkpointer ? { checkpointer: options.checkpointer } : {});
}

export type RagGraph = ReturnType<typeof buildRagGraph>;
