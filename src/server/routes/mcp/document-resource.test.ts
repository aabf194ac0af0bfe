import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../../../domain/index.ts';
import { openMcpCorpusStore, type McpCorpusStore } from '../../../testing/mcp-corpus.ts';
import { documentText } from './document-resource.ts';

let corpus: McpCorpusStore;
let handbookDoc: DocumentRecord;

/** A restricted document of many chunks: one section per clause, each longer than a chunk's share. */
const handbook = Array.from(
  { length: 12 },
  (_, i) => `## Clause ${i + 1}\n\n${`Clause ${i + 1} says the same careful thing again. `.repeat(30)}\n`,
).join('\n');

beforeAll(async () => {
  corpus = await openMcpCorpusStore();
  const folder = join(corpus.dir, 'more');
  await mkdir(folder);
  await writeFile(join(folder, 'handbook.md'), `# Handbook\n\n${handbook}`);
  await writeFile(join(folder, 'handbook.md.acl.json'), '{"acl": ["group:legal"]}');
  await corpus.evident.ingestor.ingest([folder]);
  const doc = await corpus.evident.store.getDocument('handbook.md');
  if (!doc) throw new Error('handbook.md did not ingest');
  handbookDoc = doc;
});

afterAll(async () => {
  await corpus?.close();
});

describe('documentText (evident://documents/{doc_id})', () => {
  it('reads every chunk in order for a reader of the document', async () => {
    const alice = await corpus.evident.principalFor('alice');
    const read = await documentText({ evident: corpus.evident, principal: alice }, handbookDoc);
    expect(read).toMatchObject({ chunks: handbookDoc.chunkCount, truncated: false });
    for (let i = 1; i < 12; i++)
      expect(read.text.indexOf(`Clause ${i} says`)).toBeLessThan(read.text.indexOf(`Clause ${i + 1} says`));
  });

  it('cuts at whole chunks once the bound is reached, and says how many it read', async () => {
    const alice = await corpus.evident.principalFor('alice');
    const whole = await documentText({ evident: corpus.evident, principal: alice }, handbookDoc);
    const [first] = await corpus.evident.store.getChunks(['handbook.md#0'], alice);
    const cut = await documentText(
      { evident: corpus.evident, principal: alice },
      handbookDoc,
      (first?.text.length ?? 0) + 1,
    );
    expect(handbookDoc.chunkCount).toBeGreaterThan(1);
    expect(cut).toEqual({ text: first?.text, chunks: 1, truncated: true });
    expect(whole.text.startsWith(cut.text)).toBe(true);
  });

  it('reads nothing for a principal the store filters the document from', async () => {
    const bob = await corpus.evident.principalFor('bob');
    expect(await documentText({ evident: corpus.evident, principal: bob }, handbookDoc)).toEqual({
      text: '',
      chunks: 0,
      truncated: false,
    });
  });
});
