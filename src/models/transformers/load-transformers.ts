import { ProviderError } from '../../errors/index.ts';

/** The part of `@huggingface/transformers` Evident uses, imported only when a transformers model is configured. */
export type TransformersModule = typeof import('@huggingface/transformers');

let loading: Promise<TransformersModule> | undefined;

/** Dynamic import, so the offline path never loads onnxruntime. */
export function loadTransformers(provider: string): Promise<TransformersModule> {
  loading ??= import('@huggingface/transformers').catch((cause: unknown) => {
    loading = undefined;
    throw new ProviderError(provider, 'cannot load @huggingface/transformers.', {
      cause,
      hint: 'Reinstall dependencies (`npm install`); onnxruntime-node must match this platform.',
    });
  });
  return loading;
}
