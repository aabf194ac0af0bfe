import type { EvidentConfig } from '../config/schema.ts';
import { ConfigError } from '../errors/index.ts';
import type { Embedder } from './embedder.ts';
import { HashingEmbedder } from './offline/hashing-embedder.ts';
import { parseProviderSpec } from './parse-provider-spec.ts';

const EMBEDDERS = 'offline, transformers:<folder or hub id>, ollama:<model>, openai:<model>';

/**
 * The embedder `config.embedder` names. Providers are imported on demand, so `offline` never loads onnxruntime
 * and the HTTP providers load nothing extra. `offline:<dimension>` picks the hashing dimension.
 */
export async function createEmbedder(config: EvidentConfig): Promise<Embedder> {
  const { provider, model } = parseProviderSpec(config.embedder);
  switch (provider) {
    case 'offline': {
      if (!model) return new HashingEmbedder();
      const dimension = Number(model);
      if (!Number.isInteger(dimension) || dimension < 16 || dimension > 4096) {
        throw new ConfigError(`Invalid offline embedder dimension ${JSON.stringify(model)}.`, {
          hint: 'Use "offline" or "offline:<16..4096>".',
        });
      }
      return new HashingEmbedder(dimension);
    }
    case 'transformers': {
      requireModel(provider, model, 'transformers:Xenova/all-MiniLM-L6-v2 or transformers:./models/all-MiniLM-L6-v2');
      const { TransformersEmbedder } = await import('./transformers/transformers-embedder.ts');
      return TransformersEmbedder.create({ model, modelsDir: config.modelsDir });
    }
    case 'ollama': {
      requireModel(provider, model, 'ollama:nomic-embed-text');
      const { OllamaEmbedder } = await import('./ollama/ollama-embedder.ts');
      return OllamaEmbedder.create({ model, baseUrl: config.ollamaUrl });
    }
    case 'openai': {
      requireModel(provider, model, 'openai:text-embedding-3-small');
      const { OpenAiEmbedder } = await import('./openai/openai-embedder.ts');
      return OpenAiEmbedder.create({
        model,
        baseUrl: config.openaiBaseUrl,
        ...(config.openaiApiKey ? { apiKey: config.openaiApiKey } : {}),
      });
    }
    default:
      throw new ConfigError(`Unknown embedder provider ${JSON.stringify(provider)}.`, {
        hint: `Use one of: ${EMBEDDERS}.`,
      });
  }
}

function requireModel(provider: string, model: string, example: string): void {
  if (!model) throw new ConfigError(`The ${provider} embedder needs a model.`, { hint: `For example ${example}.` });
}
