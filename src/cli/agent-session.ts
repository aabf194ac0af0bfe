import { randomUUID } from 'node:crypto';
import type { AgentRunResult } from '../domain/run-result.ts';
import type { StepEvent } from '../domain/step-event.ts';
import type { RunManager } from '../runs/run-manager.ts';
import type { RunAction } from '../runs/run-request.ts';
import type { Principal } from '../domain/index.ts';
import { UnknownAgentError } from '../errors/index.ts';
import type { Evident } from '../evident.ts';

/** The agent `ask`, `chat` and `graph` use when `--agent` is not given. */
export const DEFAULT_AGENT = 'rag';

/** The run manager of Evident's one agent runtime (built with the configured chat model on first use). */
export const runManagerOf = async (evident: Evident): Promise<RunManager> => (await evident.agents()).runs;

/** Fails with the list of agents when `name` is not one of them. */
export function assertAgent(runs: RunManager, name: string): void {
  if (!runs.agents.has(name)) throw new UnknownAgentError(name, [...runs.agents.keys()]);
}

export interface CliRunInput {
  agent: string;
  principal: Principal;
  /** The thread to continue (created when it does not exist yet); a new thread when absent. */
  threadId?: string;
  action: RunAction;
  onStep: (event: StepEvent) => void;
}

/** One run, the way the HTTP API runs it: through the run manager, its steps read from the recorded events as they are stored. */
export async function runAgent(runs: RunManager, input: CliRunInput): Promise<AgentRunResult> {
  assertAgent(runs, input.agent);
  const request = {
    agent: input.agent,
    threadId: input.threadId ?? randomUUID(),
    principal: input.principal,
    action: input.action,
    createThread: input.action.kind === 'ask',
    surface: 'cli' as const,
  };
  return runs.run(request, input.onStep);
}

/** The agent a thread is bound to (that of its first run); a thread with no run yet is asked of `fallback`. */
export async function agentOfThread(evident: Evident, threadId: string, fallback = DEFAULT_AGENT): Promise<string> {
  return (await evident.store.getThread(threadId))?.agent ?? fallback;
}

/** The agent's graph as a Mermaid flowchart. */
export async function agentMermaid(runs: RunManager, name: string): Promise<string> {
  assertAgent(runs, name);
  const drawn: unknown = await runs.agent(name).graph.getGraphAsync();
  if (typeof (drawn as { drawMermaid?: unknown }).drawMermaid !== 'function')
    throw new Error(`The ${name} graph cannot be drawn as Mermaid.`);
  return (drawn as { drawMermaid(): string }).drawMermaid();
}
