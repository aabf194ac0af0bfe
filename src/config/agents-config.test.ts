import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { ENV_VARS } from './env-vars.ts';
import { loadConfig } from './load-config.ts';

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'evident-agents-config-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const configError = (run: () => unknown): ConfigError => {
  try {
    run();
  } catch (caught) {
    if (caught instanceof ConfigError) return caught;
    throw caught;
  }
  throw new Error('expected a ConfigError');
};

describe('config.agents', () => {
  it('reads agents.evidenceGate from EVIDENT_EVIDENCE_GATE and refuses anything but enforce or off', () => {
    expect(loadConfig({ cwd, env: { EVIDENT_EVIDENCE_GATE: 'off' } }).agents.evidenceGate).toBe('off');
    expect(() => loadConfig({ cwd, env: { EVIDENT_EVIDENCE_GATE: 'sometimes' } })).toThrow(/agents\.evidenceGate/);
  });

  it('refuses an evidence gate threshold outside its range, saying which', () => {
    const flags = { agents: { evidenceGateThresholds: { ambiguity: 0.2 } } };
    expect(configError(() => loadConfig({ cwd, env: {}, flags })).message).toMatch(
      /agents\.evidenceGateThresholds\.ambiguity/,
    );
  });

  it('defaults to the bounds the agents were built with', () => {
    expect(loadConfig({ cwd, env: {} }).agents).toEqual({
      evidenceGate: 'enforce',
      evidenceGateThresholds: { attribute: 0.25, ambiguity: 0.85 },
      rag: {
        maxEvidence: 8,
        maxCitationRetries: 1,
        maxSchemaRetries: 2,
        historyWindow: 12,
        memoryLimit: 3,
        memoryFloor: 0.35,
      },
      react: { maxIterations: 10, fusionQueries: 4, fusionDepth: 10 },
      controllable: {
        maxTasks: 6,
        maxRelevanceRetries: 2,
        maxGroundednessRetries: 1,
        maxReplans: 8,
        maxCitationRetries: 1,
        maxSchemaRetries: 2,
      },
    });
  });

  it('reads one EVIDENT_<AGENT>_<KEY> variable per bound', () => {
    // Bounds only: agents.evidenceGate is a setting, not a bound (EVIDENT_EVIDENCE_GATE).
    const agentVars = ENV_VARS.filter((variable) => variable.path[0] === 'agents' && variable.path.length === 3).map(
      (variable) => variable.names[0],
    );
    expect(agentVars).toEqual([
      'EVIDENT_RAG_MAX_EVIDENCE',
      'EVIDENT_RAG_MAX_CITATION_RETRIES',
      'EVIDENT_RAG_MAX_SCHEMA_RETRIES',
      'EVIDENT_RAG_HISTORY_WINDOW',
      'EVIDENT_RAG_MEMORY_LIMIT',
      'EVIDENT_RAG_MEMORY_FLOOR',
      'EVIDENT_REACT_MAX_ITERATIONS',
      'EVIDENT_REACT_FUSION_QUERIES',
      'EVIDENT_REACT_FUSION_DEPTH',
      'EVIDENT_CONTROLLABLE_MAX_TASKS',
      'EVIDENT_CONTROLLABLE_MAX_RELEVANCE_RETRIES',
      'EVIDENT_CONTROLLABLE_MAX_GROUNDEDNESS_RETRIES',
      'EVIDENT_CONTROLLABLE_MAX_REPLANS',
      'EVIDENT_CONTROLLABLE_MAX_CITATION_RETRIES',
      'EVIDENT_CONTROLLABLE_MAX_SCHEMA_RETRIES',
    ]);
    const config = loadConfig({
      cwd,
      env: {
        EVIDENT_RAG_MAX_EVIDENCE: '12',
        EVIDENT_RAG_MEMORY_FLOOR: '0.5',
        EVIDENT_REACT_MAX_ITERATIONS: '4',
        EVIDENT_CONTROLLABLE_MAX_TASKS: '3',
      },
    });
    expect(config.agents.rag).toMatchObject({ maxEvidence: 12, memoryFloor: 0.5, historyWindow: 12 });
    expect(config.agents.react.maxIterations).toBe(4);
    expect(config.agents.controllable).toMatchObject({ maxTasks: 3, maxReplans: 8 });
  });

  it('layers file < env < flags per bound, keeping the other defaults', async () => {
    await writeFile(
      join(cwd, 'evident.config.json'),
      JSON.stringify({ agents: { rag: { maxEvidence: 5, historyWindow: 4 }, react: { fusionQueries: 2 } } }),
    );
    const config = loadConfig({
      cwd,
      env: { EVIDENT_RAG_MAX_EVIDENCE: '6' },
      flags: { agents: { react: { fusionQueries: 3 } } },
    });
    expect(config.agents.rag).toMatchObject({ maxEvidence: 6, historyWindow: 4, maxCitationRetries: 1 });
    expect(config.agents.react).toEqual({ maxIterations: 10, fusionQueries: 3, fusionDepth: 10 });
  });

  it('lets a bound be zero where zero means "none" (retries, memories, history window)', () => {
    const config = loadConfig({
      cwd,
      env: { EVIDENT_RAG_MAX_CITATION_RETRIES: '0', EVIDENT_RAG_MEMORY_LIMIT: '0', EVIDENT_RAG_HISTORY_WINDOW: '0' },
    });
    expect(config.agents.rag).toMatchObject({ maxCitationRetries: 0, memoryLimit: 0, historyWindow: 0 });
  });

  it.each([
    ['EVIDENT_RAG_MAX_EVIDENCE', '0', 'agents.rag.maxEvidence'],
    ['EVIDENT_RAG_MAX_EVIDENCE', '51', 'agents.rag.maxEvidence'],
    ['EVIDENT_RAG_MEMORY_FLOOR', '1.5', 'agents.rag.memoryFloor'],
    ['EVIDENT_REACT_MAX_ITERATIONS', '2.5', 'agents.react.maxIterations'],
    ['EVIDENT_REACT_FUSION_QUERIES', '9', 'agents.react.fusionQueries'],
    ['EVIDENT_CONTROLLABLE_MAX_TASKS', '1', 'agents.controllable.maxTasks'],
    ['EVIDENT_CONTROLLABLE_MAX_REPLANS', 'many', 'agents.controllable.maxReplans'],
  ])('refuses %s=%s with a ConfigError naming %s and the variable', (name, value, path) => {
    const error = configError(() => loadConfig({ cwd, env: { [name]: value } }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(`Invalid configuration at ${path}:`);
    expect(error.toLine()).toContain(`Check the flag, ${name} or evident.config.json.`);
  });

  it('refuses an unknown bound (a typo) instead of ignoring it', () => {
    const error = configError(() =>
      loadConfig({ cwd, env: {}, flags: { agents: { rag: { maxEvidance: 3 } } } as never }),
    );
    expect(error.message).toMatch(/^Invalid configuration at agents\.rag: .*maxEvidance/);
    expect(() => loadConfig({ cwd, env: {}, flags: { agents: { planner: { maxTasks: 3 } } } as never })).toThrow(
      /agents: .*planner/,
    );
  });
});
