import { ProviderError } from '../../errors/index.ts';
import type { Embedder } from '../embedder.ts';
import { loadTransformers } from './load-transformers.ts';
import { resolveModel, type ModelLocation } from './resolve-model.ts';

export interface TransformersEmbedderOptions {
  /** A folder or a hub id (see resolveModel). */
  model: string;
  modelsDir: string;
  batchSize?: number;
  /** Hub mirror, e.g. for tests on 127.0.0.1; defaults to the library's. */
  remoteHost?: string;
}

/** What the feature-extraction pipeline returns: a [n, d] tensor. */
interface Tensor {
  dims: number[];
  data: ArrayLike<number>;
}
type Extractor = (texts: string[], options: { pooling: 'mean'; normalize: true }) => Promise<Tensor>;

/** Local sentence embeddings with `@huggingface/transformers` feature extraction (mean pooling, L2 normalised). */
export class TransformersEmbedder implements Embedder {
  readonly semantic = true;
  readonly cacheInStore = true;
  readonly batchSize: number;

  private constructor(
    readonly id: string,
    readonly dimension: number,
    private readonly extract: Extractor,
    batchSize: number,
  ) {
    this.batchSize = batchSize;
  }

  static async create(options: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
    const provider = `transformers:${options.model}`;
    const location = resolveModel(options.model, options.modelsDir, provider);
    const extract = await loadPipeline(location, provider, options.remoteHost);
    const id = `transformers:${location.kind === 'folder' ? location.name : location.id}`;
    const probe = await runExtractor(extract, ['dimension probe'], id);
    const dimension = probe.dims[1] as number;
    return new TransformersEmbedder(id, dimension, extract, options.batchSize ?? 16);
  }

  async embed(texts: readonly string[], _kind?: 'query' | 'document'): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      const tensor = await runExtractor(this.extract, batch, this.id);
      const data = tensor.data;
      for (let row = 0; row < batch.length; row++) {
        out.push(Float32Array.from({ length: this.dimension }, (_, col) => data[row * this.dimension + col] as number));
      }
    }
    return out;
  }
}

async function runExtractor(extract: Extractor, texts: string[], id: string): Promise<Tensor> {
  try {
    const tensor = await extract(texts, { pooling: 'mean', normalize: true });
    if (tensor.dims.length !== 2 || tensor.dims[0] !== texts.length) {
      throw new Error(`unexpected output shape [${tensor.dims.join(', ')}]`);
    }
    return tensor;
  } catch (cause) {
    throw new ProviderError(id, `feature extraction failed: ${(cause as Error).message}`, {
      cause,
      hint: 'Check that the model is a sentence-embedding model exported for Transformers.js.',
    });
  }
}

async function loadPipeline(location: ModelLocation, provider: string, remoteHost?: string): Promise<Extractor> {
  const transformers = await loadTransformers(provider);
  if (remoteHost) transformers.env.remoteHost = remoteHost;
  try {
    const pipe =
      location.kind === 'folder'
        ? await transformers.pipeline('feature-extraction', location.path, {
            local_files_only: true,
            dtype: location.dtype,
          })
        : await transformers.pipeline('feature-extraction', location.id, {
            cache_dir: location.cacheDir,
            dtype: 'fp32',
          });
    return pipe as unknown as Extractor;
  } catch (cause) {
    throw new ProviderError(provider, `cannot load the model: ${(cause as Error).message}`, {
      cause,
      hint:
        location.kind === 'folder'
          ? 'The folder must hold a Transformers.js ONNX export of a sentence-embedding model.'
          : `Without network access, download ${location.id} elsewhere and put it in ${location.cacheDir}/${location.id}, or pass transformers:<folder>; or use embedder "offline".`,
    });
  }
}
