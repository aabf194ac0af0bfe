import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { LOCAL_OPERATOR } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { RecordingChatModel } from '../../testing/recording-chat-model.ts';
import { followUpQuery } from './follow-up-query.ts';
import { fusionQueriesOffline } from './fusion-queries.ts';
import { ragFusion } from './rag-fusion.ts';
import { reactDeps } from './react-agent.ts';

const QUESTION = 'Who was the first president of the society which published the Journal of Lichen Studies?';
const DOCS: Record<string, string> = {
  'journal.md':
    '# Journal of Lichen Studies\n\nThe Journal of Lichen Studies is a quarterly journal published by the Northmoor Botanical Society since 1951.',
  'society.md':
    '# Northmoor Botanical Society\n\nThe Northmoor Botanical Society was founded in 1890. Its first president was Agnes Whitcombe, a lichenologist.',
  'club.md': '# Chess club\n\nThe chess club meets on Tuesdays; its first meeting was in 1970.',
  'moss.md': '# Moss\n\nMosses are small plants; a society of moss collectors meets every spring.',
};

let dir: string;
let evident: Evident;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-fusion-'));
  await mkdir(join(dir, 'docs'));
  for (const [name, text] of Object.entries(DOCS)) await writeFile(join(dir, 'docs', name), text);
  const db = join(dir, 'store.db');
  evident = await createEvident(loadConfig({ flags: { db } }));
  expect(await evident.ingestor.ingest([join(dir, 'docs')])).toMatchObject({ failed: 0 });
});

afterAll(async () => {
  await evident?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('offline query generation', () => {
  it('makes the question, its keywords and each clause a query', () => {
    expect(fusionQueriesOffline(QUESTION, 4)).toEqual([
      QUESTION,
      'first president society published Journal Lichen Studies',
      'Who was the first president of the society',
      'published the Journal of Lichen Studies',
    ]);
    expect(fusionQueriesOffline('What are the pricing, term and liability of CT-2024-0193?', 5)).toEqual([
      'What are the pricing, term and liability of CT-2024-0193?',
      'CT-2024-0193 pricing term liability',
      'What is the pricing of CT-2024-0193?',
      'What is the term of CT-2024-0193?',
      'What is the liability of CT-2024-0193?',
    ]);
    expect(fusionQueriesOffline(QUESTION, 2)).toHaveLength(2);
  });
});

describe('knowledge_base: RAG fusion', () => {
  it('fuses the rankings of several queries, so each hop of the question is in the evidence', async () => {
    // One hit per query: whatever the evidence holds beyond the question's own top hit came from another query.
    const deps = { ...reactDeps({ services: evident }), ...{ fusionDepth: 1 } };
    const fusion = await ragFusion(QUESTION, LOCAL_OPERATOR, deps);
    expect(fusion.queries).toHaveLength(4);
    const docs = fusion.evidence.map((item) => item.doc_id);
    expect(docs).toEqual(expect.arrayContaining(['journal.md', 'society.md']));
    const topOf = (query: string) => fusion.candidates.find((c) => c.query === query && c.rank === 1)?.chunk_id;
    const tops = new Set(fusion.queries.map(topOf));
    expect(tops.size).toBeGreaterThan(1);
    // Reciprocal rank fusion (k = 60): a chunk's score is the sum of 1/(60 + rank) over the queries that found it.
    for (const item of fusion.evidence) {
      expect(item.score).toBeCloseTo(item.queries.length / 61, 6);
      for (const query of item.queries) expect(topOf(query)).toBe(item.chunk_id);
    }
    expect(fusion.evidence.map((item) => item.score)).toEqual(
      [...fusion.evidence.map((item) => item.score)].sort((a, b) => b - a),
    );
  });

  it('asks the model for the queries when there is one, the question first', async () => {
    const model = new RecordingChatModel([
      { queries: ['Journal of Lichen Studies publisher', 'Northmoor Botanical Society first president'] },
    ]);
    const deps = { ...reactDeps({ services: evident, chat: { id: 'recording:test', model } }), ...{ fusionDepth: 1 } };
    const fusion = await ragFusion(QUESTION, LOCAL_OPERATOR, deps);
    expect(fusion.queries).toEqual([
      QUESTION,
      'Journal of Lichen Studies publisher',
      'Northmoor Botanical Society first president',
    ]);
    expect(model.calls[0]?.schemaName).toBe('search_queries');
    expect(model.prompts[0]).toContain(QUESTION);
    expect(fusion.evidence.map((item) => item.doc_id)).toEqual(expect.arrayContaining(['journal.md', 'society.md']));
  });

  it('falls back to the offline queries, recording the error, when the model gives no valid queries', async () => {
    const model = new RecordingChatModel(['no', 'still no', 'nope']);
    const fusion = await ragFusion(
      QUESTION,
      LOCAL_OPERATOR,
      reactDeps({ services: evident, chat: { id: 'recording:test', model } }),
    );
    expect(fusion.queries).toEqual(fusionQueriesOffline(QUESTION, 4));
    expect(fusion.errors).toEqual([
      expect.objectContaining({ node: 'knowledge_base', code: 'structured_output_invalid' }),
    ]);
  });
});

describe('offline follow-up hop', () => {
  it('searches next for the last hop with the bridge entity the evidence names substituted', async () => {
    const fusion = await ragFusion(
      'Which society published the Journal of Lichen Studies?',
      LOCAL_OPERATOR,
      reactDeps({ services: evident }),
    );
    expect(
      followUpQuery(
        'Who was the first president of the society which published the Journal of Lichen Studies?',
        fusion.evidence.filter((e) => e.doc_id === 'journal.md'),
      ),
    ).toBe('Who was the first president of Northmoor Botanical Society?');
    // Evidence that names no bridge gives no follow-up.
    expect(
      followUpQuery(
        'Who was the first president of the society which published the Journal of Lichen Studies?',
        fusion.evidence.filter((e) => e.doc_id === 'club.md'),
      ),
    ).toBeUndefined();
    expect(followUpQuery('Who founded it?', [])).toBeUndefined();
    // The sentence already covers everything the question asks: there is no next hop to search for.
    expect(followUpQuery('Which society published the Journal of Lichen Studies?', fusion.evidence)).toBeUndefined();
  });
});
