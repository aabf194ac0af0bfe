import type { ControllableAgent } from './controllable-agent.ts';
import type { AgentDefinition } from '../runs/agent-definition.ts';
import { defineAgent } from '../runs/define-agent.ts';

/** The `controllable` agent for the run runtime. */
export const controllableDefinition = (agent: ControllableAgent): AgentDefinition =>
  defineAgent({
    name: 'controllable',
    description:
      'Plan and execute: anonymizes the question, plans on it, routes each task to retrieve_chunks, retrieve_summaries, retrieve_quotes or answer_from_context, keeps the relevant content, checks relevance (rewrites and retries) and groundedness (answers again), replans, and ends with a citation-checked answer; every loop bounded.',
    graph: agent.graph,
  });
