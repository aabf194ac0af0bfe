import type { Evident } from '../evident.ts';
import type { Logger } from '../logging/logger.ts';
import type { ChatModelHandle } from '../models/chat/chat-model.ts';
import { openControllableAgent } from './controllable/controllable-agent.ts';
import { controllableDefinition } from './controllable/controllable-definition.ts';
import type { ApprovalPolicy } from './policy/approval-policy.ts';
import { openRagAgent, type RagAgent, type RagAgentOptions } from './rag-agent.ts';
import { ragDefinition } from './rag/rag-definition.ts';
import { openReactAgent } from './react/react-agent.ts';
import { reactDefinition } from './react/react-definition.ts';
import { RunManager } from './runs/run-manager.ts';

/** The agents of one Evident and the run manager that executes them: what the server serves. */
export interface AgentRuntime {
  readonly runs: RunManager;
  readonly rag: RagAgent;
  /** Cancels what still runs, then closes the agents' checkpointers. */
  close(): Promise<void>;
}

export interface AgentRuntimeOptions {
  chat?: Pick<ChatModelHandle, 'id' | 'model'>;
  rag?: RagAgentOptions['deps'];
  logger?: Logger;
  pollMs?: number;
  /** Overrides the configured approval policy (`approvals` in the config). */
  policy?: ApprovalPolicy;
}

export function openAgentRuntime(evident: Evident, options: AgentRuntimeOptions = {}): AgentRuntime {
  const rag = openRagAgent(evident, {
    ...(options.chat ? { chat: { id: options.chat.id, model: options.chat.model } } : {}),
    ...(options.rag ? { deps: options.rag } : {}),
  });
  const react = openReactAgent(evident, options.chat ? { chat: { id: options.chat.id, model: options.chat.model } } : {});
  const controllable = openControllableAgent(evident, options.chat ? { chat: { id: options.chat.id, model: options.chat.model } } : {});
  const runs = new RunManager({
    store: evident.store,
    agents: [ragDefinition(rag), reactDefinition(react), controllableDefinition(controllable)],
    policy: options.policy ?? evident.config.approvals,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  return {
    runs,
    rag,
    async close() {
      await runs.close();
      rag.close();
      react.close();
      controllable.close();
    },
  };
}
