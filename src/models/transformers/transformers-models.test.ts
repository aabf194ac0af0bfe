import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../errors/index.ts';
import { CrossEncoderReranker } from './cross-encoder-reranker.ts';
import { resolveModel } from './resolve-model.ts';
import { TransformersEmbedder } from './transformers-embedder.ts';

/**
 * No model weights can be downloaded here, so these tests cover what happens without a usable model: every path
 * ends in a ProviderError that says what to do. The hub path is exercised against a hub mirror on 127.0.0.1.
 */
describe('transformers models without weights', () => {
  let dir: string;
  let hub: Server;
  let hubUrl: string;
  const hubRequests: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evident-transformers-'));
    hub = createServer((req, res) => {
      hubRequests.push(req.url ?? '');
      res.statusCode = 404;
      res.end('Entry not found');
    });
    await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
    hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => hub.close(() => resolve()));
  });

  it('a missing folder is a ProviderError naming the folder and what to put in it', async () => {
    const folder = join(dir, 'no-such-model');
    const error = await TransformersEmbedder.create({ model: folder, modelsDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain(`model folder ${folder} does not exist`);
    expect((error as ProviderError).hint).toMatch(/config\.json, tokenizer\.json and onnx\/model\.onnx/);
    expect((error as ProviderError).hint).toMatch(/embedder "offline"/);
  });

  it('a folder without the export files names the missing files', () => {
    const folder = join(dir, 'empty-model');
    mkdirSync(folder);
    writeFileSync(join(folder, 'config.json'), '{}');
    expect(() => resolveModel(folder, dir, 'transformers:x')).toThrow(/lacks tokenizer\.json, onnx\/model\.onnx/);
  });

  it('resolves folders under modelsDir, paths, and hub ids', () => {
    const folder = join(dir, 'org', 'mini');
    mkdirSync(join(folder, 'onnx'), { recursive: true });
    for (const file of ['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx'])
      writeFileSync(join(folder, file), '{}');
    expect(resolveModel('org/mini', dir, 'p')).toEqual({ kind: 'folder', path: folder, name: 'mini', dtype: 'q8' });
    expect(resolveModel(folder, '/elsewhere', 'p')).toMatchObject({ kind: 'folder', path: folder });
    expect(resolveModel('Xenova/all-MiniLM-L6-v2', dir, 'p')).toEqual({
      kind: 'hub',
      id: 'Xenova/all-MiniLM-L6-v2',
      cacheDir: dir,
    });
  });

  it('a folder with files that are not a model fails to load with a ProviderError, through the real library', async () => {
    const folder = join(dir, 'corrupt-model');
    mkdirSync(join(folder, 'onnx'), { recursive: true });
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ model_type: 'bert' }));
    writeFileSync(join(folder, 'tokenizer.json'), '{"not": "a tokenizer"}');
    writeFileSync(join(folder, 'onnx', 'model.onnx'), 'not an onnx file');
    const error = await TransformersEmbedder.create({ model: folder, modelsDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toMatch(/^transformers:.*corrupt-model: cannot load the model/);
    const reranker = await CrossEncoderReranker.create({ model: folder, modelsDir: dir }).catch((e: unknown) => e);
    expect(reranker).toBeInstanceOf(ProviderError);
    expect((reranker as ProviderError).hint).toMatch(/cross-encoder/);
  });

  it('a hub id the hub does not serve is a ProviderError that says where to put the model', async () => {
    const error = await TransformersEmbedder.create({
      model: 'acme/missing-embedder',
      modelsDir: dir,
      remoteHost: hubUrl,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(hubRequests.some((url) => url.includes('acme/missing-embedder'))).toBe(true);
    expect((error as ProviderError).hint).toContain(join(dir, 'acme/missing-embedder'));
  });
});
