import { ProviderError } from '../../errors/index.ts';
import { postJson, toUnitVector } from '../http-json.ts';
import { RemoteEmbedder } from '../remote-embedder.ts';

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
export class OpenAiEmbedder extends RemoteEmbedder {
  readonly id: string;

  private constructor(private readonly options: OpenAiEmbedderOptions) {
    super(options.batchSize ?? 64, options.dimension ?? KNOWN_DIMENSIONS[options.model]);
    this.id = `openai:${options.model}`;
  }

  /** Creates the embedder; asks the server once for the dimension when the model is not a known one. */
  static async create(options: OpenAiEmbedderOptions): Promise<OpenAiEmbedder> {
    const embedder = new OpenAiEmbedder(options);
    await embedder.probeDimension();
    return embedder;
  }

  /** The API rejects empty strings; a single space embeds as "nothing" without failing the batch. */
  protected prepare(text: string): string {
    return text === '' ? ' ' : text;
  }

  protected async request(input: string[]): Promise<Float32Array[]> {
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
      vectors[index] = toUnitVector(entry.embedding, this.id);
    });
    return vectors as Float32Array[];
  }
}
