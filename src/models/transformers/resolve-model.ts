import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { ProviderError } from '../../errors/index.ts';

/** Where a `transformers:` model comes from: a local folder, or a hub id (downloaded into the cache where a network exists). */
export type ModelLocation =
  | { kind: 'folder'; path: string; name: string; dtype: 'fp32' | 'q8' }
  | { kind: 'hub'; id: string; cacheDir: string };

const looksLikePath = (spec: string): boolean =>
  isAbsolute(spec) || spec.startsWith('.') || spec.startsWith('~') || spec.includes('\\');

/**
 * `spec` is a folder (absolute, `./…`, or a folder under `modelsDir`) holding a Transformers.js export
 * (`config.json`, `tokenizer.json`, `onnx/model.onnx` or `onnx/model_quantized.onnx`), or a hub id.
 * A path that does not exist is an error here, before onnxruntime is ever loaded.
 */
export function resolveModel(spec: string, modelsDir: string, provider: string): ModelLocation {
  const trimmed = spec.trim();
  if (!trimmed) {
    throw new ProviderError(provider, 'no model given.', {
      hint: 'Use transformers:<folder> or transformers:<hub id>, e.g. transformers:Xenova/all-MiniLM-L6-v2.',
    });
  }
  const underModels = resolve(modelsDir, trimmed);
  const candidate = looksLikePath(trimmed)
    ? resolve(trimmed.replace(/^~(?=$|\/)/, process.env.HOME ?? '~'))
    : existsSync(underModels)
      ? underModels
      : undefined;
  if (candidate === undefined) return { kind: 'hub', id: trimmed, cacheDir: resolve(modelsDir) };
  return { kind: 'folder', path: candidate, name: basename(candidate), dtype: checkFolder(candidate, provider) };
}

function checkFolder(folder: string, provider: string): 'fp32' | 'q8' {
  const layout =
    'a Transformers.js ONNX export: config.json, tokenizer.json and onnx/model.onnx (or onnx/model_quantized.onnx)';
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new ProviderError(provider, `model folder ${folder} does not exist.`, {
      hint: `Copy ${layout} into it (e.g. from the hub repository Xenova/all-MiniLM-L6-v2 on a machine with network), or use embedder "offline".`,
    });
  }
  const missing = ['config.json', 'tokenizer.json'].filter((file) => !existsSync(join(folder, file)));
  const fp32 = existsSync(join(folder, 'onnx', 'model.onnx'));
  const q8 = existsSync(join(folder, 'onnx', 'model_quantized.onnx'));
  if (!fp32 && !q8) missing.push('onnx/model.onnx');
  if (missing.length > 0) {
    throw new ProviderError(provider, `model folder ${folder} lacks ${missing.join(', ')}.`, {
      hint: `The folder must hold ${layout}.`,
    });
  }
  return fp32 ? 'fp32' : 'q8';
}
