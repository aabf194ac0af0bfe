import { auditRecorderOf } from '../audit/audit-recorder-of.ts';
import type { ChatModel, Evident } from '../evident.ts';
import type { Logger } from '../logging/logger.ts';
import { controllableAgent } from './controllable/controllable-agent.ts';
import type { ApprovalPolicy } from '../runs/policy/approval-policy.ts';
import { ragAgent } from './rag/rag-agent.ts';
import { reactAgent } from './react/react-agent.ts';
import type { AgentFactory } from '../runs/agent-context.ts';
import type { RunLimits } from '../runs/run-admission.ts';
import { RunManager } from '../runs/run-manager.ts';

/** Every agent Evident serves. A new agent is one folder with its factory, and one entry here. */
export const AGENTS: readonly AgentFactory[] = [ragAgent, reactAgent, controllableAgent];

/** The agents of one Evident and the run manager that executes them: what the CLI, the server and eval run through. */
export interface AgentRuntime {
  readonly runs: RunManager;
  /** Cancels what still runs, then closes the checkpointer. */
  close(): Promise<void>;
}

export interface AgentRuntimeOptions {
  chat?: ChatModel;
  logger?: Logger;
  pollMs?: number;
  /** Overrides the configured approval policy (`approvals` in the config). */
  policy?: ApprovalPolicy;
  /** The agents to serve (default `AGENTS`): an application's own agent is one more factory. */
  agents?: readonly AgentFactory[];
  /** How many runs execute at once, in all and per user. */
  limits?: RunLimits;
}

/** The runtime over an Evident instance; `createEvident` builds it once (`evident.agents()`), with its chat model. */
export function openAgentRuntime(evident: Evident, options: AgentRuntimeOptions = {}): AgentRuntime {
  // One saver for every agent, from the store's checkpoint port (the store knows where its checkpoints live).
  const checkpointer = evident.store.openCheckpointer();
  const context = { evident, checkpointer: checkpointer.saver, ...(options.chat ? { chat: options.chat } : {}) };
  const runs = new RunManager({
    store: evident.store,
    agents: (options.agents ?? AGENTS).map((agent) => agent(context)),
    policy: options.policy ?? evident.config.approvals,
    leases: evident.config.runs,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    limits: options.limits ?? evident.config.runs,
    audit: auditRecorderOf(evident),
  });
  return {
    runs,
    async close() {
      await runs.close();
      await checkpointer.close();
    },
  };
}
