import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configSchema } from '../../config/schema.ts';
import { ConfigError, StructuredOutputError } from '../../errors/index.ts';
import { createChatModel } from './create-chat-model.ts';
import { generateStructured } from './structured-output.ts';
import { FakeLlmServer } from '../../testing/fake-llm-server.ts';

const server = new FakeLlmServer();
beforeAll(() => server.start());
afterAll(() => server.stop());
beforeEach(() => {
  server.received.length = 0;
  server.replies = [];
});

const verdictSchema = z.object({ answerable: z.boolean(), confidence: z.number().min(0).max(1) });
const question = [new SystemMessage('You answer from evidence.'), new HumanMessage('What does CT-2024-0193 cost?')];
const providers = [
  {
    name: 'openai',
    llm: 'openai:local-model',
    path: '/v1/chat/completions',
    config: () => ({ llmBaseUrl: `${server.url}/v1`, llmApiKey: 'sk-local' }),
  },
  { name: 'ollama', llm: 'ollama:llama3.1:8b', path: '/api/chat', config: () => ({ ollamaUrl: server.url }) },
] as const;

describe.each(providers)('$name chat model against a local server speaking its wire protocol', (provider) => {
  const open = async () => {
    const handle = await createChatModel(configSchema.parse({ llm: provider.llm, ...provider.config() }));
    if (!handle) throw new Error('no model');
    return handle;
  };

  it('sends the model and the messages, and parses a non-streamed answer', async () => {
    const handle = await open();
    expect(handle.provider).toBe(provider.name);
    expect(handle.id).toBe(provider.llm);
    server.replies = ['It costs 12,000 EUR per year.'];
    const answer = await handle.model.invoke(question);
    expect(answer.text).toBe('It costs 12,000 EUR per year.');
    expect(server.received).toHaveLength(1);
    const [request] = server.received;
    expect(request?.path).toBe(provider.path);
    expect(request?.body.model).toBe(provider.llm.slice(provider.name.length + 1));
    expect(request?.body.messages).toEqual([
      { role: 'system', content: 'You answer from evidence.' },
      { role: 'user', content: 'What does CT-2024-0193 cost?' },
    ]);
    if (provider.name === 'openai') expect(request?.auth).toBe('Bearer sk-local');
  });

  it('streams the answer chunk by chunk', async () => {
    const handle = await open();
    server.replies = ['Twelve thousand euros, billed yearly.'];
    const chunks: string[] = [];
    for await (const chunk of await handle.model.stream(question)) if (chunk.text) chunks.push(chunk.text);
    expect(server.received[0]?.body.stream).toBe(true);
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    expect(chunks.join('')).toBe('Twelve thousand euros, billed yearly.');
  });

  it('returns a validated object, asking for the provider JSON-schema constraint', async () => {
    const handle = await open();
    server.replies = ['{"answerable": true, "confidence": 0.8}'];
    const verdict = await generateStructured({
      model: handle.model,
      schema: verdictSchema,
      messages: question,
      name: 'verdict',
    });
    expect(verdict).toEqual({ answerable: true, confidence: 0.8 });
    const body = server.received[0]?.body;
    const constraint =
      provider.name === 'openai'
        ? (body?.response_format as { json_schema?: { name?: string; schema?: unknown } })
        : { json_schema: { name: 'verdict', schema: body?.format } };
    expect(constraint?.json_schema?.name).toBe('verdict');
    expect(constraint?.json_schema?.schema).toMatchObject({
      type: 'object',
      properties: { answerable: { type: 'boolean' } },
    });
  });

  it('feeds the validation error back and retries when the first answer does not validate', async () => {
    const handle = await open();
    server.replies = ['{"answerable": "yes", "confidence": 0.8}', '{"answerable": false, "confidence": 0.1}'];
    const verdict = await generateStructured({
      model: handle.model,
      schema: verdictSchema,
      messages: question,
      name: 'verdict',
    });
    expect(verdict).toEqual({ answerable: false, confidence: 0.1 });
    expect(server.received).toHaveLength(2);
    const retry = server.received[1]?.body.messages ?? [];
    expect(retry).toHaveLength(4);
    expect(retry[2]).toEqual({ role: 'assistant', content: '{"answerable": "yes", "confidence": 0.8}' });
    expect(retry[3]?.role).toBe('user');
    expect(retry[3]?.content).toContain('did not match the required JSON schema "verdict"');
    expect(retry[3]?.content).toMatch(/- answerable: Invalid input: expected boolean/);
  });

  it('fails with a StructuredOutputError carrying the last issues after the bound', async () => {
    const handle = await open();
    server.replies = ['not json at all', '{"answerable": true}', '{"answerable": true, "confidence": 7}'];
    const failure = generateStructured({
      model: handle.model,
      schema: verdictSchema,
      messages: question,
      name: 'verdict',
      maxRetries: 2,
    });
    await expect(failure).rejects.toThrow(StructuredOutputError);
    const error = (await failure.catch((e: unknown) => e)) as StructuredOutputError;
    expect(server.received).toHaveLength(3);
    expect(error.code).toBe('structured_output_invalid');
    expect(error.details).toMatchObject({ schema: 'verdict', attempts: 3 });
    expect(error.issues).toEqual([{ path: ['confidence'], message: expect.stringMatching(/<=1/) }]);
    expect(error.message).toMatch(/after 3 attempts/);
  });
});

describe('createChatModel', () => {
  it('is offline (undefined) without llm, and names the providers for an unknown one', async () => {
    expect(await createChatModel(configSchema.parse({}))).toBeUndefined();
    const unknown = createChatModel(configSchema.parse({ llm: 'anthropic:claude' }));
    await expect(unknown).rejects.toThrow(ConfigError);
    await expect(unknown).rejects.toMatchObject({
      hint: expect.stringMatching(/openai:<model>, ollama:<model>, llama-cpp:<path to \.gguf>/),
    });
    await expect(createChatModel(configSchema.parse({ llm: 'ollama' }))).rejects.toThrow(/needs a model/);
  });

  it('asks for a key only when the openai provider points at OpenAI itself', async () => {
    await expect(createChatModel(configSchema.parse({ llm: 'openai:gpt-4o-mini' }))).rejects.toThrow(
      /needs an API key/,
    );
    const handle = await createChatModel(configSchema.parse({ llm: 'openai:gpt-4o-mini', openaiApiKey: 'sk-x' }));
    expect(handle?.provider).toBe('openai');
  });
});
