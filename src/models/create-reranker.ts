import type { EvidentConfig } from '../config/schema.ts';
import { ConfigError } from '../errors/index.ts';
import { LexicalReranker } from './offline/lexical-reranker.ts';
import { parseProviderSpec } from './parse-provider-spec.ts';
import type { Reranker } from './reranker.ts';
import type { ChatModelHandle } from './chat/chat-model.ts';

const RERANKERS = 'offline, none, cross-encoder:<folder or hub id>, llm (the chat model of --llm)';

/**
 * The reranker `config.reranker` names, or undefined for `none`. The cross-encoder loads transformers on demand;
 * `llm` grades with the one chat model of the composition root (`chatModel`), which it does not own or close.
 */
export async function createReranker(
  config: EvidentConfig,
  chatModel: () => Promise<Pick<ChatModelHandle, 'id' | 'model'> | undefined>,
): Promise<Reranker | undefined> {
  const { provider, model } = parseProviderSpec(config.reranker);
  switch (provider) {
    case 'none':
      return undefined;
    case 'offline':
      return new LexicalReranker();
    case 'cross-encoder': {
      if (!model) {
        throw new ConfigError('The cross-encoder reranker needs a model.', {
          hint: 'For example cross-encoder:Xenova/ms-marco-MiniLM-L-6-v2 or cross-encoder:./models/ms-marco-MiniLM-L-6-v2.',
        });
      }
      const { CrossEncoderReranker } = await import('./transformers/cross-encoder-reranker.ts');
      return CrossEncoderReranker.create({ model, modelsDir: config.modelsDir });
    }
    case 'llm': {
      const handle = await chatModel();
      if (!handle) {
        throw new ConfigError('The llm reranker needs a chat model.', {
          hint: 'Configure one with --llm provider:model or EVIDENT_LLM.',
        });
      }
      const { HumanMessage } = await import('@langchain/core/messages');
      const { messageText } = await import('./chat/message-text.ts');
      const { LlmReranker } = await import('./llm-reranker.ts');
      return new LlmReranker({
        modelId: handle.id,
        chat: async (prompt) => messageText(await handle.model.invoke([new HumanMessage(prompt)])),
      });
    }
    default:
      throw new ConfigError(`Unknown reranker ${JSON.stringify(provider)}.`, { hint: `Use one of: ${RERANKERS}.` });
  }
}
