import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../errors/index.ts';
import { OllamaEmbedder } from './ollama-embedder.ts';

/** A text's fake embedding: [length, vowels, 1], so tests can check which vector belongs to which input. */
const fakeVector = (text: string) => [text.length, (text.match(/[aeiou]/g) ?? []).length, 1];

interface Seen {
  path: string;
  body: { model: string; input: string[] };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

describe('OllamaEmbedder against a local server speaking /api/embed', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      const body = JSON.parse(await readBody(req)) as Seen['body'];
      seen.push({ path: req.url ?? '', body });
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || req.url !== '/api/embed') {
        res.statusCode = 404;
        res.end('404 page not found');
      } else if (body.model.startsWith('missing')) {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: `model "${body.model}" not found, try pulling it first` }));
      } else if (body.model === 'broken') {
        res.end(JSON.stringify({ embeddings: [[1, 2]] }));
      } else {
        res.end(JSON.stringify({ model: body.model, embeddings: body.input.map(fakeVector) }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('probes the dimension of an unknown model, batches input and returns unit vectors in order', async () => {
    seen.length = 0;
    const embedder = await OllamaEmbedder.create({ model: 'tiny-embed', baseUrl, batchSize: 2 });
    expect(embedder.id).toBe('ollama:tiny-embed');
    expect(embedder.dimension).toBe(3);
    const texts = ['aaa', 'bcd', 'hello world', 'x'];
    const vectors = await embedder.embed(texts, 'document');
    expect(seen.map((s) => s.body.input.length)).toEqual([1, 2, 2]);
    expect(seen[1]?.body).toEqual({ model: 'tiny-embed', input: ['aaa', 'bcd'] });
    vectors.forEach((vector, i) => {
      const raw = fakeVector(texts[i] as string);
      const norm = Math.hypot(...raw);
      expect(Array.from(vector)).toEqual(raw.map((x) => Math.fround(x / norm)));
    });
  });

  it('knows common models without a probe and sends their task prefixes', async () => {
    seen.length = 0;
    const embedder = await OllamaEmbedder.create({ model: 'nomic-embed-text:v1.5', baseUrl });
    expect(embedder.dimension).toBe(768);
    expect(seen).toHaveLength(0);
    await expect(embedder.embed(['what is RRF?'], 'query')).rejects.toThrow(/dimension 3, expected 768/);
    expect(seen[0]?.body.input).toEqual(['search_query: what is RRF?']);
  });

  it('turns a missing model into a ProviderError that says to pull it', async () => {
    const error = await OllamaEmbedder.create({ model: 'missing-model', baseUrl }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toMatch(/HTTP 404: model "missing-model" not found/);
    expect((error as ProviderError).hint).toBe('Pull the model first: `ollama pull missing-model`.');
  });

  it('rejects an answer with the wrong number of embeddings', async () => {
    await expect(
      OllamaEmbedder.create({ model: 'broken', baseUrl, dimension: 2 }).then((e) => e.embed(['a', 'b'], 'document')),
    ).rejects.toThrow(/expected 2 embeddings/);
  });

  it('says how to start Ollama when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await OllamaEmbedder.create({ model: 'tiny', baseUrl: `http://127.0.0.1:${port}` }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain(`cannot reach http://127.0.0.1:${port}/api/embed`);
    expect((error as ProviderError).hint).toMatch(/ollama serve/);
  });
});
