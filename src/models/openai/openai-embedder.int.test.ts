import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../errors/index.ts';
import { OpenAiEmbedder } from './openai-embedder.ts';

const fakeVector = (text: string) => [text.length, 2, 0, 1];

interface Seen {
  path: string;
  auth: string | undefined;
  body: { model: string; input: string[] };
}

describe('OpenAiEmbedder against a local server speaking /v1/embeddings', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer(async (req: IncomingMessage, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const body = JSON.parse(raw) as Seen['body'];
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== 'Bearer sk-test') {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
        return;
      }
      if (req.url !== '/v1/embeddings') {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: 'Not found' } }));
        return;
      }
      // Answer in reverse order: clients must place vectors by `index`.
      const data = body.input
        .map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) }))
        .reverse();
      res.end(
        JSON.stringify({ object: 'list', model: body.model, data, usage: { prompt_tokens: 1, total_tokens: 1 } }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the key and the batch, and places vectors by their index', async () => {
    seen.length = 0;
    const embedder = await OpenAiEmbedder.create({ model: 'local-embed', baseUrl, apiKey: 'sk-test', batchSize: 3 });
    expect(embedder.id).toBe('openai:local-embed');
    expect(embedder.dimension).toBe(4);
    const texts = ['a', 'bb', 'ccc', 'dddd', ''];
    const vectors = await embedder.embed(texts, 'document');
    expect(seen.slice(1).map((s) => s.body.input)).toEqual([
      ['a', 'bb', 'ccc'],
      ['dddd', ' '],
    ]);
    expect(seen[1]?.path).toBe('/v1/embeddings');
    expect(seen[1]?.auth).toBe('Bearer sk-test');
    expect(vectors.map((v) => Math.round(((v[0] as number) / (v[1] as number)) * 2))).toEqual([1, 2, 3, 4, 1]);
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
  });

  it('turns a rejected key into a ProviderError naming the variable to set', async () => {
    const error = await OpenAiEmbedder.create({ model: 'local-embed', baseUrl, apiKey: 'wrong' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain('HTTP 401: Incorrect API key provided');
    expect((error as ProviderError).hint).toMatch(/EVIDENT_OPENAI_API_KEY/);
  });

  it('uses the known dimension of OpenAI models without a request', async () => {
    seen.length = 0;
    const embedder = await OpenAiEmbedder.create({ model: 'text-embedding-3-small', baseUrl, apiKey: 'sk-test' });
    expect(embedder.dimension).toBe(1536);
    expect(seen).toHaveLength(0);
  });
});
