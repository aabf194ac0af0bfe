import { AIMessage, type AIMessageChunk, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StructuredOutputError } from '../errors/index.ts';
import { generateStructured } from '../models/chat/structured-output.ts';
import { RecordingChatModel } from './recording-chat-model.ts';

describe('RecordingChatModel', () => {
  it('answers from the script in order and keeps every prompt as text', async () => {
    const model = new RecordingChatModel(['first', (call) => `you said: ${call.messages.at(-1)?.text}`]);
    expect((await model.invoke([new SystemMessage('rules'), new HumanMessage('hi')])).text).toBe('first');
    expect((await model.invoke('again')).text).toBe('you said: again');
    expect(model.prompts).toEqual(['system: rules\n\nuser: hi', 'user: again']);
    expect(model.remaining).toBe(0);
  });

  it('fails loudly, with the prompt, when the script runs out', async () => {
    const model = new RecordingChatModel(['only one']);
    await model.invoke('one');
    await expect(model.invoke('two')).rejects.toThrow(/script ran out at call 2[\s\S]*user: two/);
  });

  it('streams token chunks that add up to the scripted answer', async () => {
    const model = new RecordingChatModel(['The price is 12,000 EUR.']);
    const chunks: string[] = [];
    for await (const chunk of await model.stream('price?')) chunks.push(chunk.text);
    expect(chunks).toEqual(['The', ' price', ' is', ' 12,000', ' EUR.']);
    expect(model.prompts).toEqual(['user: price?']);
  });

  it('serves objects to structured output and records the schema; an invalid one drives the retry', async () => {
    const schema = z.object({ answerable: z.boolean() });
    const model = new RecordingChatModel([{ answerable: 'maybe' }, { answerable: true }]);
    const result = await generateStructured({
      model,
      schema,
      name: 'verdict',
      messages: [new HumanMessage('enough?')],
    });
    expect(result).toEqual({ answerable: true });
    expect(model.calls.map((call) => call.schemaName)).toEqual(['verdict', 'verdict']);
    expect(model.calls[0]?.jsonSchema).toMatchObject({ properties: { answerable: { type: 'boolean' } } });
    expect(model.prompts[1]).toContain('assistant: {"answerable":"maybe"}');
    expect(model.prompts[1]).toMatch(/answerable: Invalid input: expected boolean/);

    const stubborn = new RecordingChatModel(['nope', 'nope']);
    await expect(
      generateStructured({
        model: stubborn,
        schema,
        name: 'verdict',
        messages: [new HumanMessage('?')],
        maxRetries: 1,
      }),
    ).rejects.toThrow(StructuredOutputError);
    expect(stubborn.calls).toHaveLength(2);
  });

  it('returns scripted tool calls and records the bound tools', async () => {
    const model = new RecordingChatModel([
      new AIMessage({ content: '', tool_calls: [{ id: 'call-1', name: 'table_query', args: { sql: 'SELECT 1' } }] }),
    ]);
    const tool = {
      type: 'function',
      function: { name: 'table_query', description: 'SQL', parameters: { type: 'object', properties: {} } },
    };
    const answer = await model.bindTools([tool]).invoke('sum the prices');
    expect(answer.tool_calls?.map(({ id, name, args }) => ({ id, name, args }))).toEqual([
      { id: 'call-1', name: 'table_query', args: { sql: 'SELECT 1' } },
    ]);
    expect(model.calls[0]?.tools).toEqual(['table_query']);
  });

  it('streams tool calls too', async () => {
    const model = new RecordingChatModel([
      new AIMessage({ content: '', tool_calls: [{ id: 'c', name: 'search', args: { q: 'x' } }] }),
    ]);
    let merged: AIMessageChunk | undefined;
    for await (const chunk of await model.stream('go')) merged = merged ? merged.concat(chunk) : chunk;
    expect(merged?.tool_calls).toEqual([{ id: 'c', name: 'search', args: { q: 'x' }, type: 'tool_call' }]);
  });

  it('answers standing steps by schema name without using the script, and records them', async () => {
    const model = new RecordingChatModel([{ verdict: 'scripted' }], {
      standing: { sub_questions: (call) => ({ sub_questions: [call.prompt.split('Question: ')[1] ?? ''] }) },
    });
    const schema = z.object({ sub_questions: z.array(z.string()) });
    for (const question of ['a?', 'b?']) {
      const output = await generateStructured({
        model,
        schema,
        name: 'sub_questions',
        messages: [new HumanMessage(`Question: ${question}`)],
      });
      expect(output).toEqual({ sub_questions: [question] });
    }
    expect(model.remaining).toBe(1);
    const verdict = await generateStructured({
      model,
      schema: z.object({ verdict: z.string() }),
      name: 'answerability',
      messages: [new HumanMessage('judge')],
    });
    expect(verdict).toEqual({ verdict: 'scripted' });
    expect(model.calls.map((call) => call.schemaName)).toEqual(['sub_questions', 'sub_questions', 'answerability']);
  });
});
