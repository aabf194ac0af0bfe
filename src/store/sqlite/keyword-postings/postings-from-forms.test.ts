import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config/index.ts';
import { createEvident } from '../../../evident.ts';
import { type DocumentTask, processDocument } from '../../../ingest/process-document.ts';
import { seededRandom } from '../../../testing/seeded-random.ts';
import { formTerms, packedAnalysedForms } from '../../../text/analysed-form-terms.ts';
import { encodeAnalysedForm } from '../../../text/analysed-form.ts';
import { analyzeForIndex } from '../../../text/analyzer.ts';
import { chunkSearchText } from '../../../text/chunk-search-text.ts';
import { SqliteConnection } from '../connection.ts';
import { contentWrite } from '../document-writes.ts';
import { VectorCache } from '../vectors/vector-cache.ts';
import { KeywordPostingsBatch } from './postings-writer.ts';

/**
 * The postings' writer reads a chunk's terms from its analysed form (made by ingestion's workers, or by the writer)
 * instead of splitting its keyword text again: the terms, counts and lengths, and so every block row, are the same.
 */
const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };
const root = mkdtempSync(join(tmpdir(), 'evident-postings-forms-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Texts of every kind the analyser meets: prose, identifiers, amounts, non-ASCII letters, CJK, empty. */
function texts(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const words = ['the', 'harbour', 'crane', 'gate', 'CT-2024-0193', '$1,200', 'e.g.', 'Straße', 'café', 'naïve'];
  const extra = ['供应商交付', '合同条款', 'ｓｕｐｐｌｉｅｒ', 'ID-42', 'v2.1.3', 'snake_case_name', 'x'];
  return Array.from({ length: count }, (_, i) => {
    if (i === 0) return '';
    const out: string[] = [];
    const n = 1 + Math.floor(random() * 300);
    for (let k = 0; k < n; k++)
      out.push(random() < 0.1 ? pick(extra) : `${pick(words)}${random() < 0.5 ? '' : k % 40}`);
    return out.join(random() < 0.1 ? '  ' : ' ');
  });
}

/** What the writer's split path counts of a keyword text: its non-empty space-separated words. */
function splitCounts(keywordText: string) {
  const counts = new Map<string, number>();
  let length = 0;
  for (const term of keywordText.split(' ')) {
    if (term === '') continue;
    counts.set(term, (counts.get(term) ?? 0) + 1);
    length++;
  }
  return { counts: [...counts], length };
}

describe('keyword postings from analysed forms', () => {
  it('reads back every distinct term, its count and the term total, first occurrence first', () => {
    const all = texts(7, 400);
    const keywordText = all.map(analyzeForIndex);
    for (const [i, text] of all.entries()) {
      const read = formTerms(encodeAnalysedForm(text, keywordText[i] as string));
      const expected = splitCounts(keywordText[i] as string);
      expect(read && { counts: read.terms.map((term, k) => [term, read.counts[k]]), length: read.length }).toEqual(
        expected,
      );
    }
    // A form with more than 256 distinct terms stores 2-byte indexes.
    const wide = Array.from({ length: 700 }, (_, i) => `t${i}`).join(' ');
    expect(formTerms(encodeAnalysedForm(wide, `${wide} t3`))?.counts.slice(0, 5)).toEqual(
      new Int32Array([1, 1, 1, 2, 1]),
    );
    expect(formTerms(new Uint8Array([0, 1, 2]))).toBeUndefined();
    expect(() => formTerms(encodeAnalysedForm('a b c', 'a b c').subarray(0, 12))).toThrow(RangeError);
  });

  it('packs a document’s forms into one buffer, each view equal to the chunk’s own form', () => {
    const all = texts(11, 30);
    const keywordText = all.map(analyzeForIndex);
    const packed = packedAnalysedForms(all, keywordText);
    expect(new Set(packed.map((view) => view.buffer)).size).toBe(1);
    expect(packed.map((view) => [...view])).toEqual(
      all.map((text, i) => [...encodeAnalysedForm(text, keywordText[i] as string)]),
    );
  });

  it('writes the same block rows, byte for byte, from the forms as from the keyword texts', () => {
    const all = texts(3, 900);
    const keywordText = all.map(analyzeForIndex);
    const forms = packedAnalysedForms(all, keywordText);
    const rowsOf = (name: string, withForms: boolean) => {
      const conn = SqliteConnection.open(join(root, name));
      const vectors = new VectorCache(conn);
      // Three batches of 300 chunks, ten chunks a document, written as the ingest transaction writes them.
      for (let batch = 0; batch < 3; batch++)
        contentWrite(conn, vectors, 'postings', { removed: [], added: [] }, () => {
          const keywords = new KeywordPostingsBatch(conn);
          for (let i = batch * 300; i < (batch + 1) * 300; i++)
            keywords.addChunk(
              i + 1,
              Math.floor(i / 10) + 1,
              keywordText[i] as string,
              withForms ? forms[i] : undefined,
            );
          keywords.flush();
        });
      conn.close();
      const db = new Database(join(root, name), { readonly: true });
      const rows = db
        .prepare(
          `SELECT term, first_pk, last_pk, count, max_tf, min_length, hex(data) AS data FROM keyword_recent
           ORDER BY term, first_pk`,
        )
        .all();
      const docTerms = db.prepare('SELECT doc_pk, terms FROM keyword_doc_terms ORDER BY doc_pk').all();
      db.close();
      return { rows, docTerms };
    };
    const split = rowsOf('split.sqlite', false);
    const read = rowsOf('forms.sqlite', true);
    expect(split.rows.length).toBeGreaterThan(100);
    expect(read).toEqual(split);
  });

  it('makes the forms where the document is processed, when the store keeps them', async () => {
    const config = loadConfig({ env: {}, cwd: root, flags: {} });
    const text = texts(9, 2)[1] as string;
    const task = (analysedForms: boolean): DocumentTask => ({
      item: { kind: 'record', record: { docId: 'one', title: 'One', text }, path: 'one', docId: 'one' },
      previous: undefined,
      acl: undefined,
      force: false,
      extras: false,
      embed: false,
      analysedForms,
    });
    const deps = { chunk: config.chunk, limits: config.ingest, logger: silentLogger };
    const made = await processDocument(task(true), deps);
    if (made.status !== 'write') throw new Error(`no write: ${made.status}`);
    const { chunks, keywordText, analysed } = made.write;
    expect(analysed?.map((form) => [...form])).toEqual(
      chunks.map((chunk, i) => [...encodeAnalysedForm(chunk.text, keywordText[i] as string)]),
    );
    const without = await processDocument(task(false), deps);
    expect(without.status === 'write' && 'analysed' in without.write).toBe(false);
  });

  it('stores the forms the workers made: each equal to the chunk’s form made from its text and keyword text', async () => {
    const db = join(root, 'ingested.sqlite');
    const evident = await createEvident(
      loadConfig({
        env: {},
        cwd: root,
        flags: { db, ingest: { workers: 2, workerMinDocuments: 1, batchDocuments: 4 } },
      }),
    );
    try {
      const records = texts(5, 40).map((text, i) => ({
        docId: `r${i}`,
        title: `Record ${i}`,
        text: `${text}. `.repeat(3),
      }));
      const summary = await evident.ingestor.ingestRecords(records);
      expect(summary.failed).toBe(0);
      await evident.ingestor.close();
    } finally {
      await evident.close();
    }
    const read = new Database(db, { readonly: true });
    const rows = read
      .prepare('SELECT c.text, c.heading_path, c.analysed, d.title FROM chunks c JOIN documents d ON d.pk = c.doc_pk')
      .all() as { text: string; heading_path: string; analysed: Buffer; title: string }[];
    read.close();
    expect(rows.length).toBeGreaterThan(40);
    for (const row of rows) {
      const headingPath = JSON.parse(row.heading_path) as string[];
      const keywordText = analyzeForIndex(chunkSearchText({ title: row.title, headingPath, text: row.text }));
      expect(new Uint8Array(row.analysed)).toEqual(encodeAnalysedForm(row.text, keywordText));
    }
  });
});
