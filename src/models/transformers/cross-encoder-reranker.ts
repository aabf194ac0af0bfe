import { ProviderError } from '../../errors/index.ts';
import type { RerankCandidate, Reranker } from '../reranker.ts';
import { loadTransformers } from './load-transformers.ts';
import { resolveModel } from './resolve-model.ts';

export interface CrossEncoderOptions {
  /** A folder or a hub id, e.g. `Xenova/ms-marco-MiniLM-L-6-v2`. */
  model: string;
  modelsDir: string;
  batchSize?: number;
  remoteHost?: string;
}

interface Tensor {
  dims: number[];
  data: ArrayLike<number>;
}
type Tokenize = (
  texts: string[],
  options: { text_pair: string[]; padding: true; truncation: true },
) => Record<string, unknown>;
type Classify = (inputs: Record<string, unknown>) => Promise<{ logits: Tensor }>;

/**
 * A cross-encoder (sequence classification over the (query, passage) pair) through `@huggingface/transformers`.
 * One logit: that is the relevance score. Two: the log-odds of the positive label (index 1).
 */
export class CrossEncoderReranker implements Reranker {
  private constructor(
    readonly id: string,
    private readonly tokenize: Tokenize,
    private readonly classify: Classify,
    private readonly batchSize: number,
  ) {}

  static async create(options: CrossEncoderOptions): Promise<CrossEncoderReranker> {
    const provider = `cross-encoder:${options.model}`;
    const location = resolveModel(options.model, options.modelsDir, provider);
    const transformers = await loadTransformers(provider);
    if (options.remoteHost) transformers.env.remoteHost = options.remoteHost;
    const source = location.kind === 'folder' ? location.path : location.id;
    const loadOptions =
      location.kind === 'folder'
        ? { local_files_only: true, dtype: location.dtype }
        : { cache_dir: location.cacheDir, dtype: 'fp32' as const };
    try {
      const tokenizer = await transformers.AutoTokenizer.from_pretrained(source, loadOptions);
      const model = await transformers.AutoModelForSequenceClassification.from_pretrained(source, loadOptions);
      const id = `cross-encoder:${location.kind === 'folder' ? location.name : location.id}`;
      return new CrossEncoderReranker(
        id,
        tokenizer as unknown as Tokenize,
        ((inputs) => model(inputs)) as Classify,
        options.batchSize ?? 16,
      );
    } catch (cause) {
      throw new ProviderError(provider, `cannot load the model: ${(cause as Error).message}`, {
        cause,
        hint:
          location.kind === 'folder'
            ? 'The folder must hold a Transformers.js ONNX export of a cross-encoder (sequence classification).'
            : `Without network access, put the model in ${location.cacheDir}/${location.id} or pass cross-encoder:<folder>; or use reranker "offline".`,
      });
    }
  }

  async rerank(query: string, candidates: readonly RerankCandidate[]): Promise<number[]> {
    const scores: number[] = [];
    for (let start = 0; start < candidates.length; start += this.batchSize) {
      const batch = candidates.slice(start, start + this.batchSize);
      try {
        const inputs = this.tokenize(
          batch.map(() => query),
          { text_pair: batch.map((candidate) => candidate.text), padding: true, truncation: true },
        );
        const { logits } = await this.classify(inputs);
        const labels = logits.dims[1] ?? 1;
        for (let row = 0; row < batch.length; row++) {
          const first = logits.data[row * labels] as number;
          scores.push(labels === 1 ? first : (logits.data[row * labels + 1] as number) - first);
        }
      } catch (cause) {
        throw new ProviderError(this.id, `scoring failed: ${(cause as Error).message}`, { cause });
      }
    }
    return scores;
  }
}
