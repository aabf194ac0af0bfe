import type { EvidentConfig } from '../../config/schema.ts';
import { ConfigError } from '../../errors/index.ts';
import { parseProviderSpec } from '../parse-provider-spec.ts';
import type { ChatModelHandle } from './chat-model.ts';
import { createChatModel } from './create-chat-model.ts';

const OPENAI_API = 'https://api.openai.com/v1';

/**
 * The model `config.vision` names (one that reads images), or undefined when none is configured. It is a chat model
 * of its own, with its own endpoint and key (`visionBaseUrl`, `visionApiKey`, else the provider's): the chat model
 * may well be a small local one that sees no images.
 */
export async function createVisionModel(
  config: EvidentConfig,
  options: { maxTokens?: number } = {},
): Promise<ChatModelHandle | undefined> {
  if (!config.vision) return undefined;
  const { provider, model } = parseProviderSpec(config.vision);
  if (provider !== 'openai' && provider !== 'ollama')
    throw new ConfigError(`The vision model must be openai:<model> or ollama:<model>, not ${config.vision}.`, {
      hint: 'For example EVIDENT_VISION=openai:gpt-4o-mini, or ollama:llava with a local Ollama.',
    });
  const apiKey = config.visionApiKey ?? config.openaiApiKey;
  const baseUrl = config.visionBaseUrl ?? (provider === 'openai' ? config.openaiBaseUrl : config.ollamaUrl);
  if (provider === 'openai' && !apiKey && baseUrl.replace(/\/+$/, '') === OPENAI_API)
    throw new ConfigError('The openai vision model needs an API key.', {
      hint: 'Set EVIDENT_OPENAI_API_KEY (or EVIDENT_VISION_API_KEY), or point EVIDENT_VISION_BASE_URL at a local OpenAI-compatible server.',
    });
  const { llmApiKey: _key, llmBaseUrl: _url, ...rest } = config;
  return createChatModel(
    { ...rest, llm: config.vision, llmBaseUrl: baseUrl, ...(apiKey === undefined ? {} : { llmApiKey: apiKey }) },
    options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens },
  );
}
