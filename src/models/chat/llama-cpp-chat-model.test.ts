import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configSchema } from '../../config/schema.ts';
import { ConfigError, ValidationError } from '../../errors/index.ts';
import { describeWith, sharedModel } from '../../testing/requirements.ts';
import type { ChatModelHandle } from './chat-model.ts';
import { createChatModel } from './create-chat-model.ts';
import { LlamaCppChatModel, toChatHistory } from './llama-cpp-chat-model.ts';
import { generateStructured } from './structured-output.ts';

// A real GGUF with random weights: the text is gibberish, but the plumbing and the grammar are real.
const TINY_GGUF = sharedModel('llama-2-tiny-random.gguf');

describeWith(TINY_GGUF, 'llama-cpp chat model on a real GGUF', (gguf) => {
  let handle: ChatModelHandle;
  let model: LlamaCppChatModel;
  // Random weights rarely stop on their own: plain answers are cut short to keep the test fast.
  const short = { maxTokens: 12 };

  beforeAll(async () => {
    const loaded = await createChatModel(configSchema.parse({ llm: `llama-cpp:${gguf}` }), { contextSize: 512 });
    if (!loaded) throw new Error('no model');
    handle = loaded;
    expect(handle.model).toBeInstanceOf(LlamaCppChatModel);
    model = handle.model as LlamaCppChatModel;
  });
  afterAll(async () => handle?.close());

  it('is selected by llm=llama-cpp:<path>', () => {
    expect(handle.provider).toBe('llama-cpp');
    expect(handle.id).toBe(`llama-cpp:${gguf}`);
    expect(handle.model._llmType()).toBe('llama-cpp');
  });

  it('generates a string answer', async () => {
    const answer = await model.invoke([new SystemMessage('Be brief.'), new HumanMessage('Say hello.')], short);
    expect(typeof answer.content).toBe('string');
    expect(answer.text.length).toBeGreaterThan(0);
  });

  it('streams the answer in chunks that add up to the whole', async () => {
    const chunks: string[] = [];
    for await (const chunk of await model.stream([new HumanMessage('Count to five.')], short)) chunks.push(chunk.text);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('').length).toBeGreaterThan(0);
  });

  it('produces schema-valid JSON through a JSON-schema grammar', async () => {
    const schema = z.object({
      verdict: z.enum(['answerable', 'unanswerable']),
      grounded: z.boolean(),
      reason: z.string().max(12),
      tags: z.array(z.enum(['price', 'risk', 'date'])).max(2),
    });
    const result = await generateStructured({
      model: handle.model,
      schema,
      name: 'verdict',
      messages: [new HumanMessage('Is the evidence sufficient? Answer in JSON.')],
      maxRetries: 0,
    });
    expect(schema.parse(result)).toEqual(result);
    expect(['answerable', 'unanswerable']).toContain(result.verdict);
  });
});

describe('llama-cpp chat model without a GGUF', () => {
  it('names the fix when the GGUF file is missing', async () => {
    const missing = createChatModel(configSchema.parse({ llm: 'llama-cpp:/no/such/model.gguf' }));
    await expect(missing).rejects.toThrow(ConfigError);
    await expect(missing).rejects.toThrow(/No GGUF model file at \/no\/such\/model\.gguf/);
    await expect(missing).rejects.toMatchObject({ hint: expect.stringMatching(/--llm llama-cpp:/) });
  });
});

describe('toChatHistory', () => {
  it('keeps the earlier turns as history and the trailing user turns as the prompt', () => {
    const { history, prompt } = toChatHistory([
      new SystemMessage('sys'),
      new HumanMessage('q1'),
      new AIMessage('a1'),
      new HumanMessage('q2'),
      new HumanMessage('more'),
    ]);
    expect(history).toEqual([
      { type: 'system', text: 'sys' },
      { type: 'user', text: 'q1' },
      { type: 'model', response: ['a1'] },
    ]);
    expect(prompt).toBe('q2\n\nmore');
  });

  it('refuses a list that does not end with a user turn', () => {
    expect(() => toChatHistory([new SystemMessage('sys')])).toThrow(ValidationError);
  });
});
