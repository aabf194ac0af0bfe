import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors/index.ts';
import { configFromEnv, envNameOf, type Env } from './env-vars.ts';
import { configSchema, type ConfigInput, type EvidentConfig } from './schema.ts';

export const CONFIG_FILE = 'evident.config.json';

/** Drops undefined leaves and empty objects so lower-priority sources show through. */
function prune(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const pruned = prune(child);
    if (pruned === undefined) continue;
    if (typeof pruned === 'object' && pruned !== null && !Array.isArray(pruned) && Object.keys(pruned).length === 0)
      continue;
    out[key] = pruned;
  }
  return out;
}

function merge(...layers: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries((prune(layer) ?? {}) as Record<string, unknown>)) {
      const prev = out[key];
      out[key] =
        prev &&
        typeof prev === 'object' &&
        !Array.isArray(prev) &&
        value &&
        typeof value === 'object' &&
        !Array.isArray(value)
          ? merge(prev, value)
          : value;
    }
  }
  return out;
}

function readConfigFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`Cannot read ${path}: ${(cause as Error).message}.`, {
      cause,
      hint: 'Fix the JSON or remove the file.',
    });
  }
}

export interface LoadConfigOptions {
  /** Highest priority: command-line flags. */
  flags?: ConfigInput;
  env?: Env;
  /** Folder holding `evident.config.json`; defaults to the working directory. */
  cwd?: string;
  /** An explicit config file (`--config`); it must exist. */
  configFile?: string;
}

/** Config from defaults < `evident.config.json` < `EVIDENT_*` env < flags, validated by zod. */
export function loadConfig(options: LoadConfigOptions = {}): EvidentConfig {
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.configFile ? resolve(cwd, options.configFile) : undefined;
  if (explicit && !existsSync(explicit)) {
    throw new ConfigError(`Config file ${explicit} does not exist.`, { hint: 'Check the --config path.' });
  }
  const filePath = explicit ?? resolve(cwd, CONFIG_FILE);
  const file = existsSync(filePath) ? readConfigFile(filePath) : {};
  const merged = merge(file, configFromEnv(options.env ?? process.env), options.flags ?? {});
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'config';
    const envName = issue ? envNameOf(issue.path) : undefined;
    throw new ConfigError(`Invalid configuration at ${where}: ${issue?.message ?? z.prettifyError(parsed.error)}.`, {
      hint: `Check the flag, ${envName ?? 'the EVIDENT_* variable'} or ${CONFIG_FILE}.`,
    });
  }
  return parsed.data;
}
