import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { ChatModel } from '../models/chat/chat-model.ts';
import type { AgentDefinition } from '../runs/agent-definition.ts';
import type { AgentServices } from './agent-services.ts';

/** What every agent is built from: the services, the chat model (none offline) and the runtime's one checkpointer. */
export interface AgentContext {
  services: AgentServices;
  chat?: ChatModel;
  checkpointer: BaseCheckpointSaver;
  /** An assistant's instructions, added to the system prompt of every model step of the agent built from this. */
  instructions?: string;
}

/** An agent's folder exports one of these; the runtime's list of them is the list of agents. */
export type AgentFactory = (context: AgentContext) => AgentDefinition;
