import type { EvidentConfig } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { ChatModel } from '../models/chat/chat-model.ts';
import type { ApprovalPolicy } from '../runs/policy/approval-policy.ts';
import type { RunAudit } from '../runs/run-audit.ts';
import type { RunLimits } from '../runs/run-admission.ts';
import { RunManager, type RunManagerDeps } from '../runs/run-manager.ts';
import { AssistantService } from '../runs/assistant-service.ts';
import { AssistantRunResolver } from '../runs/run-assistants.ts';
import type { AssistantStore } from '../store/ports/assistant-store.ts';
import { agentVariantBuilder } from './assistant-variants.ts';
import type { CheckpointStore } from '../store/ports/checkpoint-store.ts';
import type { AgentFactory } from './agent-context.ts';
import type { AgentServices, AgentStore } from './agent-services.ts';
import { controllableAgent } from './controllable/controllable-agent.ts';
import { ragAgent } from './rag/rag-agent.ts';
import { reactAgent } from './react/react-agent.ts';

/** Every agent Evident serves. A new agent is one folder with its factory, and one entry here. */
export const AGENTS: readonly AgentFactory[] = [ragAgent, reactAgent, controllableAgent];

/** The agents of one Evident and the run manager that executes them: what the CLI, the server and eval run through. */
export interface AgentRuntime {
  readonly runs: RunManager;
  /** The assistants (LangGraph's): the built-in agents as system assistants, and the stored ones with their versions. */
  readonly assistants: AssistantService;
  /** Cancels what still runs, then closes the checkpointer. */
  close(): Promise<void>;
}

/**
 * What the runtime is built from: the agents' services, plus what the run engine alone uses — the run log and the
 * checkpoints of the store, the approval policy and run settings, the audit recorder. An `Evident` is one.
 */
export interface AgentRuntimeServices extends AgentServices {
  readonly store: AgentStore & RunManagerDeps['store'] & CheckpointStore & AssistantStore;
  readonly config: AgentServices['config'] &
    Pick<EvidentConfig, 'approvals' | 'runs'> &
    Partial<Pick<EvidentConfig, 'webhooks'>>;
  readonly audit: RunAudit;
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

/** The runtime over an Evident's services; `createEvident` builds it once (`evident.agents()`), with its chat model. */
export async function openAgentRuntime(
  services: AgentRuntimeServices,
  options: AgentRuntimeOptions = {},
): Promise<AgentRuntime> {
  // One saver for every agent, from the store's checkpoint port (the store knows where its checkpoints live).
  const checkpointer = await services.store.openCheckpointer();
  const context = { services, checkpointer: checkpointer.saver, ...(options.chat ? { chat: options.chat } : {}) };
  const factories = options.agents ?? AGENTS;
  const agents = factories.map((agent) => agent(context));
  const byName = new Map(agents.map((agent) => [agent.name, agent]));
  const policy = options.policy ?? services.config.approvals;
  const assistants = new AssistantService({ store: services.store, agents: byName, approvals: policy });
  // An assistant's run applies its version's settings to an agent built from the same services, cached per settings.
  const build = agentVariantBuilder(
    context,
    new Map(agents.map((agent, i) => [agent.name, factories[i] as AgentFactory])),
  );
  let runs: RunManager;
  try {
    runs = new RunManager({
      store: services.store,
      agents,
      policy,
      assistants: new AssistantRunResolver({ service: assistants, agents: byName, build, policy }),
      leases: services.config.runs,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.pollMs ? { pollMs: options.pollMs } : {}),
      limits: options.limits ?? services.config.runs,
      audit: services.audit,
      ...(services.config.webhooks ? { webhooks: services.config.webhooks } : {}),
    });
  } catch (error) {
    await checkpointer.close();
    throw error;
  }
  return {
    runs,
    assistants,
    async close() {
      await runs.close();
      await checkpointer.close();
    },
  };
}
