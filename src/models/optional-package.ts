import { ConfigError } from '../errors/index.ts';

/**
 * The local-model runtimes, optional peer dependencies of the package (package.json `peerDependencies`, at these
 * versions): a plain install leaves them out (together over 1 GB of native binaries), and only the providers that
 * run a model in this process import them.
 */
export const OPTIONAL_PACKAGES = {
  'node-llama-cpp': '3.21.1',
  '@huggingface/transformers': '4.3.2',
} as const;

export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/**
 * Whether `error` is Node's report that the package `name` itself is not installed, and not a broken install of it
 * (a file missing inside it) or a package it imports in turn (those name another package first).
 */
export function isMissingPackage(error: unknown, name: OptionalPackage): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === 'ERR_MODULE_NOT_FOUND' &&
    typeof message === 'string' &&
    message.startsWith(`Cannot find package '${name}' `)
  );
}

/** The error that says which optional package a provider needs and how to add it. */
export function missingPackageError(name: OptionalPackage, provider: string, cause: unknown): ConfigError {
  const version = OPTIONAL_PACKAGES[name];
  return new ConfigError(
    `The ${provider} provider needs the optional package ${name}: run \`npm install ${name}@${version}\` beside evident.`,
    {
      cause,
      hint: 'It is an optional peer dependency, not installed with evident; or configure another provider (see docs/models.md).',
      details: { package: name, version },
    },
  );
}

/**
 * Runs `load` (a dynamic import of `name`, or of a module that imports it); a missing `name` becomes a ConfigError
 * that says what to install, any other failure is rethrown as it is.
 */
export async function importOptional<T>(name: OptionalPackage, provider: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, name)) throw missingPackageError(name, provider, error);
    throw error;
  }
}
