import type { AssistantSettings } from '../config/assistant-settings-schema.ts';
import type { AgentDefinition } from '../runs/agent-definition.ts';
import type { AgentVariantBuilder } from '../runs/run-assistants.ts';
import type { AgentContext, AgentFactory } from './agent-context.ts';

/**
 * An agent configured by an assistant's settings: the same factory over the same services, with the settings laid
 * over the server's configuration — the agent's bounds (`agents.<graph>`), `retrieval.topK`, the chat model or none
 * (`model: "offline"`), and instructions for every model step. Nothing else is rebuilt: the store, search, models
 * and the one checkpointer are the composition root's.
 */
export function agentVariantBuilder(
  context: AgentContext,
  factories: ReadonlyMap<string, AgentFactory>,
): AgentVariantBuilder {
  return (graphId: string, settings: AssistantSettings): AgentDefinition => {
    const factory = factories.get(graphId);
    if (!factory) throw new Error(`No agent factory for ${graphId}.`);
    const { services } = context;
    const agents = services.config.agents;
    const own = (agents as unknown as Record<string, Record<string, unknown> | undefined>)[graphId];
    const bounds = own ? { [graphId]: { ...own, ...settings.agent } } : {};
    const instructions = settings.prompts?.instructions ?? context.instructions;
    const chat = settings.model === 'offline' ? undefined : context.chat;
    return factory({
      checkpointer: context.checkpointer,
      ...(chat ? { chat } : {}),
      ...(instructions ? { instructions } : {}),
      services: {
        ...services,
        retrieval: { ...services.retrieval, topK: settings.retrieval?.topK ?? services.retrieval.topK },
        config: { ...services.config, agents: { ...agents, ...bounds } },
      },
    });
  };
}
