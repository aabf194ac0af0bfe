import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { createEvident } from '../evident.ts';
import { FakeLlmServer } from '../testing/fake-llm-server.ts';
import { createReranker } from './create-reranker.ts';

const server = new FakeLlmServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

describe('the llm reranker wired to the configured chat model', () => {
  it('needs a chat model', async () => {
    await expect(createReranker(configSchema.parse({ reranker: 'llm' }), async () => undefined)).rejects.toThrow(
      /The llm reranker needs a chat model/,
    );
  });

  it('grades the passages through the one chat model of --llm, the one the agents use, and ranks by its grades', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evident-llm-reranker-'));
    const evident = await createEvident(
      configSchema.parse({ db: join(dir, 'e.db'), reranker: 'llm', llm: 'ollama:llama3.1:8b', ollamaUrl: server.url }),
    );
    const chat = await evident.chatModel();
    expect(chat?.id).toBe('ollama:llama3.1:8b');
    expect(await evident.chatModel()).toBe(chat);
    const reranker = evident.reranker;
    expect(reranker?.id).toBe('llm:ollama:llama3.1:8b');
    server.replies = ['[1] 2\n[2] 9\n[3] 0'];
    const candidates = [
      'Hotels cost $220 a night.',
      'The termination fee is $48,000.',
      'Webhooks retry for 72 hours.',
    ].map((text, i) => ({
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
    await evident.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
