import { ProviderError } from '../../errors/index.ts';
import { isMissingPackage, missingPackageError } from '../optional-package.ts';

/** The part of `@huggingface/transformers` Evident uses, imported only when a transformers model is configured. */
export type TransformersModule = typeof import('@huggingface/transformers');

let loading: Promise<TransformersModule> | undefined;

/** Dynamic import, so the offline path never loads onnxruntime, and a package without it installs and runs. */
export function loadTransformers(provider: string): Promise<TransformersModule> {
  loading ??= import('@huggingface/transformers').catch((cause: unknown) => {
    loading = undefined;
    // An optional peer dependency: not installed unless the app added it.
    if (isMissingPackage(cause, '@huggingface/transformers'))
      throw missingPackageError('@huggingface/transformers', provider.split(':')[0] as string, cause);
    throw new ProviderError(provider, 'cannot load @huggingface/transformers.', {
      cause,
      hint: 'Reinstall dependencies (`npm install`); onnxruntime-node must match this platform.',
    });
  });
  return loading;
}
