import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { FakeLlmServer } from '../testing/fake-llm-server.ts';
import { createReranker } from './create-reranker.ts';

const server = new FakeLlmServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

describe('the llm reranker wired to the configured chat model', () => {
  it('needs a chat model', async () => {
    await expect(createReranker(configSchema.parse({ reranker: 'llm' }))).rejects.toThrow(/The llm reranker needs a chat model/);
  });

  it('grades the passages through the chat model of --llm and ranks by its grades', async () => {
    const reranker = await createReranker(configSchema.parse({ reranker: 'llm', llm: 'ollama:llama3.1:8b', ollamaUrl: server.url }));
    expect(reranker?.id).toBe('llm:ollama:llama3.1:8b');
    server.replies = ['[1] 2\n[2] 9\n[3] 0'];
    const candidates = ['Hotels cost $220 a night.', 'The termination fee is $48,000.', 'Webhooks retry for 72 hours.'].map((text, i) => ({
      id: `c${i}`,
      text,
      retrievalScore: 1 - i / 10,
    }));
    const scores = await reranker!.rerank('What is the termination fee?', candidates);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
    expect(scores[0]).toBeGreaterThan(scores[2]!);
    const prompt = server.received[0]?.body.messages.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain('What is the termination fee?');
    expect(prompt).toContain('The termination fee is $48,000.');
    await reranker?.close?.();
  });
});
