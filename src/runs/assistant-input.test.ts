import { describe, expect, it } from 'vitest';
import { isEvidentError } from '../errors/index.ts';
import {
  assertNarrowsPolicy,
  narrowedPolicy,
  parseAssistantAcl,
  settingsOf,
  validatedConfig,
  validatedContext,
} from './assistant-input.ts';
import type { ApprovalPolicy } from './policy/approval-policy.ts';

const SERVER: ApprovalPolicy = { default: ['owner', 'admin'], tools: { save_memory: ['admin'] } };

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (isEvidentError(error) && error.code === 'invalid_input') return error.message;
    throw error;
  }
  throw new Error('expected a validation error');
};

describe('assistant configuration', () => {
  it('accepts the documented keys for the graph and names an unknown or invalid one', () => {
    const config = {
      configurable: { model: 'offline', retrieval: { topK: 3 }, agent: { maxEvidence: 2 } },
      tags: ['a'],
    };
    expect(validatedConfig('rag', config)).toBe(config);
    expect(
      validatedContext('controllable', { agent: { maxTasks: 3 }, prompts: { instructions: 'Be brief.' } }),
    ).toEqual({
      agent: { maxTasks: 3 },
      prompts: { instructions: 'Be brief.' },
    });
    expect(messageOf(() => validatedConfig('rag', { configurable: { agent: { maxTasks: 3 } } }))).toContain('maxTasks');
    expect(messageOf(() => validatedConfig('rag', { configurable: { retrieval: { topK: 0 } } }))).toContain(
      'config.configurable.retrieval.topK',
    );
    expect(messageOf(() => validatedContext('react', { temperature: 1 }))).toContain('temperature');
    expect(messageOf(() => validatedContext('rag', { model: 'openai:gpt-4o' }))).toContain('context.model');
    expect(messageOf(() => validatedContext('rag', { prompts: { instructions: 'x'.repeat(4001) } }))).toContain(
      'prompts.instructions',
    );
    expect(messageOf(() => validatedConfig('rag', { run_name: 'x' }))).toContain('run_name');
  });

  it('lays context over config.configurable, key by key at the top', () => {
    expect(
      settingsOf({
        config: { configurable: { model: 'offline', retrieval: { topK: 2 } } },
        context: { retrieval: { topK: 9 } },
      }),
    ).toEqual({ model: 'offline', retrieval: { topK: 9 } });
  });

  it('parses an ACL: public alone, or user and group entries; never an empty string as public', () => {
    expect(parseAssistantAcl('public')).toEqual(['public']);
    expect(parseAssistantAcl(['public'])).toEqual(['public']);
    expect(parseAssistantAcl(['group:legal', 'user:bob', 'group:legal'])).toEqual(['group:legal', 'user:bob']);
    expect(parseAssistantAcl([])).toEqual([]);
    for (const bad of ['', 'everyone', ['public', 'user:bob'], ['group:'], ['admin'], { acl: 'public' }])
      expect(messageOf(() => parseAssistantAcl(bad))).toMatch(/acl|ACL/);
  });

  it('lets an assistant narrow the approval policy, never widen it', () => {
    assertNarrowsPolicy({ approvals: { default: ['admin'], tools: { save_memory: ['admin'] } } }, SERVER, 'config');
    expect(
      messageOf(() => assertNarrowsPolicy({ approvals: { tools: { save_memory: ['owner'] } } }, SERVER, 'config')),
    ).toContain('save_memory');
    const narrowed = narrowedPolicy(SERVER, { approvals: { default: ['admin'] } });
    expect(narrowed).toEqual({ default: ['admin'], tools: { save_memory: ['admin'] } });
    // A default the server's tool list does not allow keeps the server's list for that tool (never nobody).
    expect(narrowedPolicy(SERVER, { approvals: { default: ['owner'] } }).tools.save_memory).toEqual(['admin']);
    expect(narrowedPolicy(SERVER, {})).toBe(SERVER);
  });
});
