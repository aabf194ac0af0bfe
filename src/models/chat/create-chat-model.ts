import { resolve } from 'node:path';
import type { EvidentConfig } from '../../config/schema.ts';
import { ConfigError } from '../../errors/index.ts';
import { importOptional } from '../optional-package.ts';
import { parseProviderSpec } from '../parse-provider-spec.ts';
import type { ChatModelHandle } from './chat-model.ts';

const CHAT_MODELS = 'openai:<model>, ollama:<model>, llama-cpp:<path to .gguf>';
const OPENAI_API = 'https://api.openai.com/v1';

/** Options of the chat model itself, not of the deployment. */
export interface ChatModelOptions {
  /** 0 by default: RAG answers should be repeatable. */
  temperature?: number;
  /** Default bound on answer tokens (llama-cpp, Ollama `num_predict`, OpenAI `max_tokens`). */
  maxTokens?: number;
  /** llama-cpp context window in tokens. */
  contextSize?: number;
  /**
   * A span per call (`chat <id>`) while tracing is on. Given to the model at construction, so the copies a provider
   * makes of itself (ChatOpenAI's `withConfig`, used for the JSON-schema format) report their calls too.
   */
  traced?: boolean;
}

/**
 * The chat model `config.llm` names, or undefined when none is configured (offline mode). Providers are imported on
 * demand so that offline runs never load LangChain's HTTP clients or the native llama.cpp addon.
 */
export async function createChatModel(
  config: EvidentConfig,
  options: ChatModelOptions = {},
): Promise<ChatModelHandle | undefined> {
  if (!config.llm) return undefined;
  const { provider, model } = parseProviderSpec(config.llm);
  const id = `${provider}:${model}`;
  const temperature = options.temperature ?? 0;
  // The span handler (LangChain's callbacks, OpenTelemetry) loads only while tracing is on.
  const ChatModelSpanHandler = options.traced
    ? (await import('../../telemetry/chat-model-spans.ts')).ChatModelSpanHandler
    : undefined;
  const spans = (spanId: string) => (ChatModelSpanHandler ? { callbacks: [new ChatModelSpanHandler(spanId)] } : {});
  switch (provider) {
    case 'openai': {
      requireModel(provider, model, 'openai:gpt-4o-mini, or a vLLM / LM Studio model name with --llm-base-url');
      const baseURL = config.llmBaseUrl ?? config.openaiBaseUrl;
      const apiKey = config.llmApiKey ?? config.openaiApiKey;
      if (!apiKey && sameUrl(baseURL, OPENAI_API)) {
        throw new ConfigError('The openai chat model needs an API key.', {
          hint: 'Set EVIDENT_OPENAI_API_KEY (or EVIDENT_LLM_API_KEY), or point EVIDENT_LLM_BASE_URL at a local OpenAI-compatible server.',
        });
      }
      const { OpenAiChatModel } = await import('./openai-chat-model.ts');
      const chat = new OpenAiChatModel({
        model,
        // Local OpenAI-compatible servers (vLLM, llama.cpp server, LM Studio) accept any key, but the client wants one.
        apiKey: apiKey ?? 'not-needed',
        configuration: { baseURL },
        temperature,
        // The Chat Completions API is what every OpenAI-compatible server speaks; the Responses API is OpenAI's own.
        useResponsesApi: false,
        maxRetries: 2,
        ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
        ...spans(id),
      });
      return { id, provider, model: chat, close: async () => undefined };
    }
    case 'ollama': {
      requireModel(provider, model, 'ollama:llama3.1:8b');
      const { OllamaChatModel } = await import('./ollama-chat-model.ts');
      const chat = new OllamaChatModel({
        model,
        baseUrl: config.llmBaseUrl ?? config.ollamaUrl,
        temperature,
        ...(options.maxTokens ? { numPredict: options.maxTokens } : {}),
        ...spans(id),
      });
      return { id, provider, model: chat, close: async () => undefined };
    }
    case 'llama-cpp': {
      requireModel(provider, model, 'llama-cpp:./models/qwen2.5-3b-instruct-q4_k_m.gguf');
      // The module imports node-llama-cpp, an optional peer dependency: its absence fails this import.
      const { LlamaCppChatModel } = await importOptional(
        'node-llama-cpp',
        provider,
        () => import('./llama-cpp-chat-model.ts'),
      );
      const chat = await LlamaCppChatModel.load({
        modelPath: model,
        temperature,
        ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
        ...(options.contextSize ? { contextSize: options.contextSize } : {}),
        // The handle's id names the resolved path, as `load` resolves it.
        ...spans(`llama-cpp:${resolve(model)}`),
      });
      return { id: `llama-cpp:${chat.modelPath}`, provider, model: chat, close: () => chat.close() };
    }
    default:
      throw new ConfigError(`Unknown chat model provider ${JSON.stringify(provider)}.`, {
        hint: `Use one of: ${CHAT_MODELS}.`,
      });
  }
}

function requireModel(provider: string, model: string, example: string): void {
  if (!model) throw new ConfigError(`The ${provider} chat model needs a model.`, { hint: `For example ${example}.` });
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
