import { randomUUID } from 'node:crypto';
import type { AgentRunResult } from '../domain/run-result.ts';
import type { Turn } from '../domain/turn.ts';
import type { StepEvent } from '../domain/step-event.ts';
import type { ApprovalDecision } from '../domain/approval.ts';
import type { RunManager } from '../runs/run-manager.ts';
import type { Principal } from '../domain/index.ts';
import { openAgentRuntime, type AgentRuntime } from '../agent/agent-runtime.ts';
import type { AgentsConfig } from '../config/index.ts';
import type { Evident } from '../evident.ts';
import type { ChatModel } from '../models/chat/chat-model.ts';

export interface AskOptions {
  question: string;
  principal: Principal;
  threadId?: string;
  /** Earlier turns seeding a new thread. */
  history?: Turn[];
  onStep?: (event: StepEvent) => void;
}

/**
 * One agent as a test drives it: every call is a run through the run manager, exactly as the CLI and the API run it
 * (no second executor), in the shape tests read easily.
 */
export function agentClient(runs: RunManager, agent: string) {
  const run = (
    threadId: string,
    principal: Principal,
    action: Parameters<RunManager['run']>[0]['action'],
    onStep?: (event: StepEvent) => void,
  ): Promise<AgentRunResult> =>
    runs.run({ agent, threadId, principal, action, createThread: action.kind === 'ask' }, onStep);
  return {
    /** The agent's compiled graph, for tests that read its checkpoints directly. */
    graph: runs.agent(agent).graph,
    ask: (input: AskOptions) =>
      run(
        input.threadId ?? randomUUID(),
        input.principal,
        { kind: 'ask', question: input.question, history: input.history ?? [] },
        input.onStep,
      ),
    approve: (input: ApprovalDecision & { threadId: string; principal: Principal }) =>
      run(input.threadId, input.principal, {
        kind: 'resume',
        decision: { decision: input.decision, ...(input.args ? { args: input.args } : {}) },
      }),
    fork: (input: { threadId: string; checkpointId: string; principal: Principal; question?: string }) =>
      run(input.threadId, input.principal, {
        kind: 'fork',
        checkpointId: input.checkpointId,
        ...(input.question === undefined ? {} : { question: input.question }),
      }),
    runs: (threadId: string, principal: Principal) => runs.runs(threadId, principal),
    checkpoints: (threadId: string, principal: Principal) => runs.checkpoints(threadId, principal),
    threads: (principal: Principal) => runs.threads(principal),
  };
}

export type AgentClient = ReturnType<typeof agentClient>;

export interface OpenAgentOptions {
  chat?: ChatModel;
  /** Bounds overriding the configured ones (`agents.<name>` of the config), for this agent's runtime only. */
  bounds?: { [A in keyof AgentsConfig]?: Partial<AgentsConfig[A]> };
  pollMs?: number;
}

/** A runtime of its own (with its chat model and bounds) and a client of one of its agents; `close` closes the runtime. */
export async function openAgent(
  evident: Evident,
  agent: string,
  options: OpenAgentOptions = {},
): Promise<AgentClient & { runtime: AgentRuntime; close(): Promise<void> }> {
  const agents = Object.fromEntries(
    Object.entries(evident.config.agents).map(([name, bounds]) => [
      name,
      typeof bounds === 'object' ? { ...bounds, ...(options.bounds?.[name as keyof AgentsConfig] as object) } : bounds,
    ]),
  ) as AgentsConfig;
  const configured: Evident = { ...evident, config: { ...evident.config, agents } };
  const runtime = await openAgentRuntime(configured, {
    ...(options.chat ? { chat: options.chat } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  return { ...agentClient(runtime.runs, agent), runtime, close: () => runtime.close() };
}
