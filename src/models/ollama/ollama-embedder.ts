import { ProviderError } from '../../errors/index.ts';
import { postJson, toUnitVector } from '../http-json.ts';
import { RemoteEmbedder } from '../remote-embedder.ts';

export interface OllamaEmbedderOptions {
  model: string;
  /** e.g. `http://127.0.0.1:11434`. */
  baseUrl: string;
  batchSize?: number;
  /** Known in advance to skip the probe request. */
  dimension?: number;
  timeoutMs?: number;
}

/** Dimensions of common Ollama embedding models, so opening a store needs no request. */
const KNOWN_DIMENSIONS: Record<string, number> = {
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
  'snowflake-arctic-embed': 1024,
  'bge-m3': 1024,
};

/** Task prefixes some models were trained with; without them their retrieval quality drops. */
const PREFIXES: Record<string, { query: string; document: string }> = {
  'nomic-embed-text': { query: 'search_query: ', document: 'search_document: ' },
};

const baseName = (model: string): string => model.split(':')[0] as string;

/** Embeddings from an Ollama server: `POST /api/embed {model, input: [...]}` → `{embeddings: [[...]]}`. */
export class OllamaEmbedder extends RemoteEmbedder {
  readonly id: string;

  private constructor(private readonly options: OllamaEmbedderOptions) {
    super(options.batchSize ?? 32, options.dimension ?? KNOWN_DIMENSIONS[baseName(options.model)]);
    this.id = `ollama:${options.model}`;
  }

  /** Creates the embedder; asks the server once for the dimension when the model is not a known one. */
  static async create(options: OllamaEmbedderOptions): Promise<OllamaEmbedder> {
    const embedder = new OllamaEmbedder(options);
    await embedder.probeDimension();
    return embedder;
  }

  protected prepare(text: string, kind: 'query' | 'document'): string {
    return (PREFIXES[baseName(this.options.model)]?.[kind] ?? '') + text;
  }

  protected async request(input: string[]): Promise<Float32Array[]> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/api/embed`;
    const answer = await postJson({
      provider: this.id,
      url,
      body: { model: this.options.model, input },
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      unreachableHint: `Start Ollama (\`ollama serve\`) or set EVIDENT_OLLAMA_URL to where it runs.`,
      hints: { 404: `Pull the model first: \`ollama pull ${this.options.model}\`.` },
    });
    const embeddings = (answer as { embeddings?: unknown }).embeddings;
    if (!Array.isArray(embeddings) || embeddings.length !== input.length) {
      throw new ProviderError(this.id, `expected ${input.length} embeddings from ${url}.`, {
        hint: 'Check that the server is Ollama 0.3 or newer (the /api/embed endpoint).',
      });
    }
    return embeddings.map((embedding) => toUnitVector(embedding, this.id));
  }
}
