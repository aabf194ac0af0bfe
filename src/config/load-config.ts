import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors/index.ts';
import { configSchema, type ConfigInput, type EvidentConfig } from './schema.ts';

export const CONFIG_FILE = 'evident.config.json';

type Env = Record<string, string | undefined>;

const num = (value: string | undefined) => (value === undefined || value === '' ? undefined : Number(value));

/** `EVIDENT_*` variables mapped onto the config shape. */
function fromEnv(env: Env): ConfigInput {
  const input: Record<string, unknown> = {
    db: env.EVIDENT_DB,
    databaseUrl: env.EVIDENT_DATABASE_URL,
    embedder: env.EVIDENT_EMBEDDER,
    reranker: env.EVIDENT_RERANKER,
    modelsDir: env.EVIDENT_MODELS_DIR,
    ollamaUrl: env.EVIDENT_OLLAMA_URL,
    openaiBaseUrl: env.EVIDENT_OPENAI_BASE_URL,
    openaiApiKey: env.EVIDENT_OPENAI_API_KEY ?? env.OPENAI_API_KEY,
    llm: env.EVIDENT_LLM,
    llmBaseUrl: env.EVIDENT_LLM_BASE_URL,
    llmApiKey: env.EVIDENT_LLM_API_KEY,
    adminKey: env.EVIDENT_ADMIN_KEY,
    chunk: { size: num(env.EVIDENT_CHUNK_SIZE), overlap: num(env.EVIDENT_CHUNK_OVERLAP) },
    ingest: { maxFileBytes: num(env.EVIDENT_MAX_FILE_BYTES) },
    retrieval: { rrfK: num(env.EVIDENT_RRF_K), topK: num(env.EVIDENT_TOP_K) },
    debug: env.EVIDENT_DEBUG === undefined ? undefined : ['1', 'true', 'yes'].includes(env.EVIDENT_DEBUG.toLowerCase()),
  };
  return prune(input) as ConfigInput;
}

/** Drops undefined leaves and empty objects so lower-priority sources show through. */
function prune(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const pruned = prune(child);
    if (pruned === undefined) continue;
    if (typeof pruned === 'object' && pruned !== null && !Array.isArray(pruned) && Object.keys(pruned).length === 0) continue;
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
        prev && typeof prev === 'object' && !Array.isArray(prev) && value && typeof value === 'object' && !Array.isArray(value)
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
  const merged = merge(file, fromEnv(options.env ?? process.env), options.flags ?? {});
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'config';
    throw new ConfigError(`Invalid configuration at ${where}: ${issue?.message ?? z.prettifyError(parsed.error)}.`, {
      hint: `Check the flag, the EVIDENT_* variable or ${CONFIG_FILE}.`,
    });
  }
  return parsed.data;
}
