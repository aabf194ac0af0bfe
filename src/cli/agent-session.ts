import { randomUUID } from 'node:crypto';
import { openAgentRuntime, type AgentRuntime } from '../agent/agent-runtime.ts';
import { pendingActionOf } from '../agent/core/approval.ts';
import type { RagRunResult } from '../agent/rag-agent.ts';
import type { RunAction } from '../agent/runs/run-request.ts';
import type { RagStateType } from '../agent/core/state.ts';
import { isStepStreamChunk, type StepEvent } from '../agent/core/step-event.ts';
import type { Principal } from '../domain/index.ts';
import { EvidentError } from '../errors/index.ts';
import type { Evident } from '../evident.ts';
import { createChatModel } from '../models/chat/create-chat-model.ts';

/** The agent `ask`, `chat` and `graph` use when `--agent` is not given. */
export const DEFAULT_AGENT = 'rag';

/**
 * Opens the agent runtime (every agent, as the API serves them) with the configured chat model, runs `work`, closes
 * both. `withChat: false` opens no model (drawing a graph needs none: the wiring is the same in both modes).
 */
export async function withAgentRuntime<T>(evident: Evident, work: (runtime: AgentRuntime) => Promise<T>, options: { withChat?: boolean } = {}): Promise<T> {
  const chat = options.withChat === false ? undefined : await createChatModel(evident.config);
  const runtime = openAgentRuntime(evident, chat ? { chat } : {});
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
    await chat?.close();
  }
}

/** The agents the runtime serves, by name. */
export const agentNames = (runtime: AgentRuntime): string[] => [...runtime.runs.agents.keys()];

/** Fails with the list of agents when `name` is not one of them. */
export function assertAgent(runtime: AgentRuntime, name: string): void {
  if (runtime.runs.agents.has(name)) return;
  throw new EvidentError('unknown_agent', `Unknown agent ${JSON.stringify(name)}.`, { category: 'user', hint: `Agents: ${agentNames(runtime).join(', ')}.` });
}

export interface RuntimeRunInput {
  agent: string;
  principal: Principal;
  /** The thread to continue (created when it does not exist yet); a new thread when absent. */
  threadId?: string;
  action: RunAction;
  onStep: (event: StepEvent) => void;
}

/**
 * One run through the run runtime, the path the HTTP API takes: started in the background, its recorded events read
 * as they are stored (step events to `onStep`), then its final state as a run result. A failed run throws its public
 * error.
 */
export async function runThroughRuntime(runtime: AgentRuntime, input: RuntimeRunInput): Promise<RagRunResult> {
  assertAgent(runtime, input.agent);
  const run = await runtime.runs.start({
    agent: input.agent,
    threadId: input.threadId ?? randomUUID(),
    principal: input.principal,
    action: input.action,
    createThread: input.action.kind === 'ask',
  });
  let values: Record<string, unknown> | undefined;
  let failure: { error?: string; message?: string; hint?: string | null } | undefined;
  for await (const event of runtime.runs.events(run.runId, 0, new AbortController().signal)) {
    if (event.event === 'custom' && isStepStreamChunk(event.data)) input.onStep(event.data.event);
    else if (event.event === 'values') values = event.data as Record<string, unknown>;
    else if (event.event === 'error') failure = event.data as typeof failure;
  }
  if (failure) {
    throw new EvidentError(failure.error ?? 'run_failed', failure.message ?? 'The run failed.', {
      category: 'system',
      ...(failure.hint ? { hint: failure.hint } : {}),
    });
  }
  return runResultOf(values ?? {}, run.threadId, run.runId);
}

/** A run's final state (the shared fields every agent's state carries) as the CLI prints it. */
export function runResultOf(values: Record<string, unknown>, threadId: string, runId: string): RagRunResult {
  const state = values as Partial<RagStateType>;
  const pending = pendingActionOf(values);
  return {
    answer: state.answer ?? null,
    status: pending ? 'interrupted' : (state.status ?? 'failed'),
    mode: state.mode ?? 'offline',
    thread_id: threadId,
    run_id: runId,
    standalone_question: state.standalone_question ?? '',
    sub_questions: state.sub_questions ?? [],
    evidence_ids: (state.evidence ?? []).map((item) => item.chunk_id),
    tool_calls: state.tool_calls ?? [],
    steps: state.steps ?? [],
    errors: state.errors ?? [],
    memories: state.memories ?? [],
    ...(pending ? { pending_action: pending } : {}),
  };
}

/** The agent's graph as a Mermaid flowchart. */
export async function agentMermaid(runtime: AgentRuntime, name: string): Promise<string> {
  assertAgent(runtime, name);
  const drawn: unknown = await runtime.runs.agent(name).graph.getGraphAsync();
  if (typeof (drawn as { drawMermaid?: unknown }).drawMermaid !== 'function') throw new Error(`The ${name} graph cannot be drawn as Mermaid.`);
  return (drawn as { drawMermaid(): string }).drawMermaid();
}
