import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../config/load-config.ts';
import { ConfigError } from '../../errors/index.ts';
import { toGrammarJsonSchema } from './grammar-json-schema.ts';

describe('llm config', () => {
  it('reads EVIDENT_LLM, EVIDENT_LLM_BASE_URL and EVIDENT_LLM_API_KEY; flags win', () => {
    const env = {
      EVIDENT_LLM: 'ollama:qwen2.5:7b',
      EVIDENT_LLM_BASE_URL: 'http://127.0.0.1:8000/v1',
      EVIDENT_LLM_API_KEY: 'k',
    };
    const config = loadConfig({ env, cwd: '/nonexistent' });
    expect(config).toMatchObject({ llm: 'ollama:qwen2.5:7b', llmBaseUrl: 'http://127.0.0.1:8000/v1', llmApiKey: 'k' });
    expect(loadConfig({ env, cwd: '/nonexistent', flags: { llm: 'llama-cpp:./m.gguf' } }).llm).toBe(
      'llama-cpp:./m.gguf',
    );
    expect(loadConfig({ env: {}, cwd: '/nonexistent' }).llm).toBeUndefined();
    expect(() => loadConfig({ env: { EVIDENT_LLM: 'Bad Spec' }, cwd: '/nonexistent' })).toThrow(ConfigError);
  });
});

describe('toGrammarJsonSchema', () => {
  it('keeps what the grammar can enforce and drops the rest', () => {
    const schema = z.object({
      kind: z.enum(['a', 'b']),
      note: z.string().max(20).regex(/^x/).nullable(),
      score: z.number().min(0).max(1),
      when: z.iso.datetime().optional(),
    });
    const reduced = toGrammarJsonSchema(z.toJSONSchema(schema) as Record<string, unknown>);
    expect(reduced).toEqual({
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['a', 'b'] },
        note: { oneOf: [{ type: 'string', maxLength: 20 }, { type: 'null' }] },
        score: { type: 'number' },
        when: { type: 'string', format: 'date-time' },
      },
      required: ['kind', 'note', 'score'],
      additionalProperties: false,
    });
  });
});
