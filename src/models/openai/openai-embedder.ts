import { ProviderError } from '../../errors/index.ts';
import type { Embedder } from '../embedder.ts';
import { postJson, toUnitVector } from '../http-json.ts';

export interface OpenAiEmbedderOptions {
  model: string;
  /** e.g. `https://api.openai.com/v1`, or any OpenAI-compatible server (vLLM, LM Studio, llama.cpp). */
  baseUrl: string;
  apiKey?: string;
  batchSize?: number;
  dimension?: number;
  timeoutMs?: number;
}

const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/** Embeddings from an OpenAI-compatible API: `POST {baseUrl}/embeddings {model, input}` → `{data: [{index, embedding}]}`. */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly semantic = true;
  readonly batchSize: number;
  private dim: number | undefined;

  private constructor(private readonly options: OpenAiEmbedderOptions) {
    this.id = `openai:${options.model}`;
    this.batchSize = options.batchSize ?? 64;
    this.dim = options.dimension ?? KNOWN_DIMENSIONS[options.model];
  }

  static async create(options: OpenAiEmbedderOptions): Promise<OpenAiEmbedder> {
    const embedder = new OpenAiEmbedder(options);
    if (embedder.dim === undefined) {
      const [probe] = await embedder.request(['dimension probe']);
      embedder.dim = (probe as Float32Array).length;
    }
    return embedder;
  }

  get dimension(): number {
    return this.dim as number;
  }

  async embed(texts: readonly string[], _kind?: 'query' | 'document'): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      // The API rejects empty strings; a single space embeds as "nothing" without failing the batch.
      const batch = texts.slice(start, start + this.batchSize).map((text) => (text === '' ? ' ' : text));
      out.push(...(await this.request(batch)));
    }
    return out;
  }

  private async request(input: string[]): Promise<Float32Array[]> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/embeddings`;
    const answer = await postJson({
      provider: this.id,
      url,
      body: { model: this.options.model, input, encoding_format: 'float' },
      headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      unreachableHint: 'Check EVIDENT_OPENAI_BASE_URL and the network.',
      hints: {
        401: 'Set EVIDENT_OPENAI_API_KEY (or OPENAI_API_KEY) to a valid key.',
        404: `Check the model name (${this.options.model}) and that the base URL ends in /v1.`,
      },
    });
    const data = (answer as { data?: unknown }).data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw new ProviderError(this.id, `expected ${input.length} embeddings from ${url}.`, {
        hint: 'Check that the server implements the OpenAI embeddings API.',
      });
    }
    const vectors = new Array<Float32Array | undefined>(input.length);
    data.forEach((item: unknown, position) => {
      const entry = item as { index?: unknown; embedding?: unknown };
      // Entries carry their input index; order them by it rather than trusting the array order.
      const index = typeof entry.index === 'number' ? entry.index : position;
      if (index < 0 || index >= input.length || vectors[index]) {
        throw new ProviderError(this.id, `answered with an invalid embedding index ${index}.`, {
          hint: 'Check that the server implements the OpenAI embeddings API.',
        });
      }
      const vector = toUnitVector(entry.embedding, this.id);
      if (this.dim !== undefined && vector.length !== this.dim) {
        throw new ProviderError(this.id, `answered with dimension ${vector.length}, expected ${this.dim}.`, {
          hint: 'Check the model name.',
        });
      }
      vectors[index] = vector;
    });
    return vectors as Float32Array[];
  }
}
