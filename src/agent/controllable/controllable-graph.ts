import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { END, START, StateGraph } from '@langchain/langgraph';
import type { ControllableDeps, ControllableNode } from './controllable-deps.ts';
import { ControllableState, type ControllableStateType } from './controllable-state.ts';
import { controllableStepEvent } from './controllable-step-event.ts';
import { answerFromContext } from './nodes/answer-from-context.ts';
import { anonymizeQuestion } from './nodes/anonymize.ts';
import { deanonymizePlan } from './nodes/deanonymize-plan.ts';
import { finalAnswer } from './nodes/final-answer.ts';
import { finalize } from './nodes/finalize.ts';
import { evidenceGate } from '../core/nodes/evidence-gate.ts';
import { groundednessCheck } from './nodes/groundedness-check.ts';
import { keepRelevant } from './nodes/keep-relevant.ts';
import { planner } from './nodes/planner.ts';
import { relevanceCheck } from './nodes/relevance-check.ts';
import { replan } from './nodes/replan.ts';
import { retrieveWith } from './nodes/retrieve.ts';
import { rewriteQuery } from './nodes/rewrite-query.ts';
import { saveRequestedMemory } from '../core/nodes/save-memory.ts';
import { startRun } from './nodes/start-run.ts';
import { memoryToSave } from '../core/memory/remember-intent.ts';
import { taskHandler } from './nodes/task-handler.ts';
import { tableQuery } from './nodes/table-query.ts';
import { citationCheck } from '../core/nodes/citation-check.ts';
import { rewrite } from '../core/nodes/rewrite.ts';
import { traced } from '../core/traced.ts';

const TOOL_NODES = {
  retrieve_chunks: 'retrieve_chunks',
  retrieve_summaries: 'retrieve_summaries',
  retrieve_quotes: 'retrieve_quotes',
  table_query: 'table_query',
  answer_from_context: 'answer_from_context',
} as const;
const RETRIEVAL_NODES = {
  retrieve_chunks: 'retrieve_chunks',
  retrieve_summaries: 'retrieve_summaries',
  retrieve_quotes: 'retrieve_quotes',
} as const;

/** Where the task handler's (or a rewrite's) choice of tool leads. */
const toolOf = (state: ControllableStateType) => (state.tool === '' ? 'answer_from_context' : state.tool);
const retrievalToolOf = (state: ControllableStateType) =>
  state.tool === 'retrieve_summaries' || state.tool === 'retrieve_quotes' ? state.tool : 'retrieve_chunks';

/**
 * The `controllable` plan-and-execute graph: start_run ⇒ (save_memory, after an approval → finalize | rewrite (a follow-up made standalone) → anonymize → planner (plans on the anonymized question) →
 * deanonymize_plan → task_handler ⇒ (table_query ⇒ (finalize, answered in SQL | retrieve_chunks …) | retrieve_chunks | retrieve_summaries | retrieve_quotes → keep_relevant →
 * relevance_check ⇒ (answer_from_context | rewrite_query → retrieve again, bounded | replan, given up) |
 * answer_from_context) → groundedness_check ⇒ (replan | answer_from_context again, bounded | replan, given up) →
 * replan ⇒ (task_handler | final_answer, when done or at the task bound) → citation_check ⇒ (final_answer again,
 * bounded | finalize)). The wiring is the same with and without a chat model; only the nodes' strategies differ.
 */
export function buildControllableGraph(deps: ControllableDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const node = (name: string, fn: ControllableNode) => traced(name, fn, deps, controllableStepEvent);
  const graph = new StateGraph(ControllableState)
    .addNode('start_run', node('start_run', startRun))
    .addNode('rewrite', node('rewrite', rewrite))
    .addNode('anonymize', node('anonymize', anonymizeQuestion))
    .addNode('planner', node('planner', planner))
    .addNode('deanonymize_plan', node('deanonymize_plan', deanonymizePlan))
    .addNode('task_handler', node('task_handler', taskHandler))
    .addNode('retrieve_chunks', node('retrieve_chunks', retrieveWith('retrieve_chunks')))
    .addNode('retrieve_summaries', node('retrieve_summaries', retrieveWith('retrieve_summaries')))
    .addNode('retrieve_quotes', node('retrieve_quotes', retrieveWith('retrieve_quotes')))
    .addNode('table_query', node('table_query', tableQuery))
    .addNode('keep_relevant', node('keep_relevant', keepRelevant))
    .addNode('relevance_check', node('relevance_check', relevanceCheck))
    .addNode('rewrite_query', node('rewrite_query', rewriteQuery))
    .addNode('answer_from_context', node('answer_from_context', answerFromContext))
    .addNode('groundedness_check', node('groundedness_check', groundednessCheck))
    .addNode('replan', node('replan', replan))
    .addNode('final_answer', node('final_answer', finalAnswer))
    .addNode('citation_check', node('citation_check', citationCheck))
    .addNode('save_memory', node('save_memory', saveRequestedMemory))
    .addNode('evidence_gate', node('evidence_gate', evidenceGate))
    .addNode('finalize', node('finalize', finalize))
    .addEdge(START, 'start_run')
    // "Remember that …" is a side effect, not a question: it waits for an approval in save_memory.
    .addConditionalEdges('start_run', (state) => (memoryToSave(state.question) ? 'remember' : 'ask'), {
      remember: 'save_memory',
      ask: 'rewrite',
    })
    .addEdge('save_memory', 'evidence_gate')
    .addEdge('rewrite', 'anonymize')
    .addEdge('anonymize', 'planner')
    .addEdge('planner', 'deanonymize_plan')
    .addEdge('deanonymize_plan', 'task_handler')
    .addConditionalEdges('task_handler', toolOf, TOOL_NODES)
    // A table answer is computed in SQL and ends the run, as in rag; no rows fall back to retrieving passages.
    .addConditionalEdges('table_query', (state) => (state.answer ? 'answered' : 'retrieve'), {
      answered: 'evidence_gate',
      retrieve: 'retrieve_chunks',
    })
    .addEdge('retrieve_chunks', 'keep_relevant')
    .addEdge('retrieve_summaries', 'keep_relevant')
    .addEdge('retrieve_quotes', 'keep_relevant')
    .addEdge('keep_relevant', 'relevance_check')
    .addConditionalEdges(
      'relevance_check',
      (state) =>
        state.relevant ? 'relevant' : state.relevance_retries < deps.maxRelevanceRetries ? 'rewrite' : 'give_up',
      { relevant: 'answer_from_context', rewrite: 'rewrite_query', give_up: 'replan' },
    )
    .addConditionalEdges('rewrite_query', retrievalToolOf, RETRIEVAL_NODES)
    .addEdge('answer_from_context', 'groundedness_check')
    // Offline answers are extractive and deterministic: answering again would repeat the same answer.
    .addConditionalEdges(
      'groundedness_check',
      (state) =>
        state.grounded
          ? 'grounded'
          : deps.chat && state.response && state.groundedness_retries < deps.maxGroundednessRetries
            ? 'retry'
            : 'give_up',
      { grounded: 'replan', retry: 'answer_from_context', give_up: 'replan' },
    )
    .addConditionalEdges('replan', (state) => (state.plan_done ? 'done' : 'next'), {
      next: 'task_handler',
      done: 'final_answer',
    })
    .addConditionalEdges('final_answer', (state) => (state.status === 'refused' || !state.answer ? 'done' : 'check'), {
      check: 'citation_check',
      done: 'evidence_gate',
    })
    .addConditionalEdges('citation_check', (state) => (state.answer ? 'done' : 'retry'), {
      done: 'evidence_gate',
      retry: 'final_answer',
    })
    .addEdge('evidence_gate', 'finalize')
    .addEdge('finalize', END);
  const compiled = graph.compile(options.checkpointer ? { checkpointer: options.checkpointer } : {});
  // A run is longer than LangGraph's default of 25 super-steps; its own bounds say how long it can be.
  return compiled.withConfig({ recursionLimit: controllableStepBound(deps) });
}

/**
 * The most node executions a run can take under its bounds: the four opening nodes; per task, the task handler,
 * table_query, each retrieval attempt (retrieve, keep, check, rewrite), each answer with its check, and the replan; then every
 * final-answer attempt with its citation check, and finalize.
 */
export function controllableStepBound(deps: ControllableDeps): number {
  const perTask = 2 + 4 * (deps.maxRelevanceRetries + 1) + 2 * (deps.maxGroundednessRetries + 1) + 1;
  return 4 + deps.maxReplans * perTask + 2 * (deps.maxCitationRetries + 1) + 1;
}

export type ControllableGraph = ReturnType<typeof buildControllableGraph>;
