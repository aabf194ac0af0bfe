import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { importOptional, isMissingPackage, OPTIONAL_PACKAGES } from './optional-package.ts';

/** Node's error for an import of a package that is not installed (src/package.int.test.ts meets the real one). */
const notFound = (message: string) => Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' });

describe('optional packages', () => {
  it('are the optional peer dependencies of package.json, at the same versions', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(manifest.peerDependencies).toEqual(OPTIONAL_PACKAGES);
    for (const name of Object.keys(OPTIONAL_PACKAGES)) {
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(manifest.devDependencies[name]).toBe(OPTIONAL_PACKAGES[name as keyof typeof OPTIONAL_PACKAGES]);
      expect(manifest.dependencies[name]).toBeUndefined();
    }
  });

  it('turns only the missing package itself into a ConfigError that says what to install', async () => {
    const missing = notFound("Cannot find package 'node-llama-cpp' imported from /app/dist/models/chat/x.js");
    const error = await importOptional('node-llama-cpp', 'llama-cpp', () => Promise.reject(missing)).catch((e) => e);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect(error.message).toBe(
      'The llama-cpp provider needs the optional package node-llama-cpp: run `npm install node-llama-cpp@3.21.1` beside evident.',
    );
    expect(error.cause).toBe(missing);

    // A package it needs in turn, a broken install of it, another failure: rethrown as they are.
    for (const other of [
      notFound("Cannot find package 'lifecycle-utils' imported from /app/node_modules/node-llama-cpp/dist/index.js"),
      notFound("Cannot find module '/app/node_modules/node-llama-cpp/dist/index.js' imported from /app/x.js"),
      new Error("Cannot find package 'node-llama-cpp' imported from /app/x.js"),
    ]) {
      expect(isMissingPackage(other, 'node-llama-cpp')).toBe(false);
      await expect(importOptional('node-llama-cpp', 'llama-cpp', () => Promise.reject(other))).rejects.toBe(other);
    }
    expect(isMissingPackage(missing, '@huggingface/transformers')).toBe(false);
    await expect(importOptional('node-llama-cpp', 'llama-cpp', async () => 42)).resolves.toBe(42);
  });
});
