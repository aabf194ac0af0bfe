import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { LOCAL_OPERATOR, type Principal } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { analyzeQuery } from '../../text/analyzer.ts';
import { RecordingChatModel } from '../../testing/recording-chat-model.ts';
import { llmSummarizer } from './chapter-summarizer.ts';
import { extractiveSummary } from './extractive-summary.ts';
import { notableQuotes } from './notable-quotes.ts';

const CONTRACT = [
  '# Harbour services agreement HS-2031',
  'The agreement covers berth allocation at the north quay. Berth allocation follows the published berth schedule.',
  'The weather was mild that spring.',
  'Berth allocation disputes go to the harbour master, whose berth schedule decision is final.',
  '## Fees',
  'The Customer pays $9,400 per month for berth allocation.',
  'The harbour master said "no vessel may berth without a pilot" at the opening.',
].join('\n\n');

describe('extractive summaries and notable quotes', () => {
  it("keeps the chapter's central sentences verbatim, in reading order, and drops the aside", () => {
    const summary = extractiveSummary(
      'Berth allocation follows the berth schedule. The weather was mild that spring. Berth allocation disputes go to the harbour master. The berth schedule is published weekly.',
    );
    expect(summary).toBe(
      'Berth allocation follows the berth schedule. Berth allocation disputes go to the harbour master. The berth schedule is published weekly.',
    );
  });

  it('quotes sentences with a quotation, a figure or an identifier, not plain prose', () => {
    const quotes = notableQuotes(
      'The weather was mild that spring and nobody minded. The Customer pays $9,400 per month under HS-2031. The harbour master said "no vessel may berth without a pilot" at the opening.',
    );
    expect(quotes).toEqual([
      'The Customer pays $9,400 per month under HS-2031.',
      'The harbour master said "no vessel may berth without a pilot" at the opening.',
    ]);
  });
});

describe('extras at ingest', () => {
  let dir: string;
  let evident: Evident;
  const member: Principal = { id: 'mia', groups: ['ops'], roles: ['member'] };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-extras-'));
    evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') } }));
  });
  afterEach(async () => {
    await evident.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores extractive chapter summaries and quotes with the version, and replaces them when it changes', async () => {
    await evident.ingestor.ingestRecords([{ docId: 'harbour.md', title: 'Harbour', text: CONTRACT }]);
    expect(await evident.store.documentExtrasInfo('harbour.md')).toMatchObject({
      summaryMethod: 'extractive',
      summaries: 1,
    });
    const [summary] = await evident.store.searchSummaries(analyzeQuery('berth allocation'), member, 3);
    expect(summary).toMatchObject({ docId: 'harbour.md', method: 'extractive', chunkIds: ['harbour.md#0'] });
    expect(summary?.text).not.toContain('weather');
    const quotes = await evident.store.searchQuotes(analyzeQuery('pilot'), member, 3);
    expect(quotes[0]).toMatchObject({
      chunkId: 'harbour.md#0',
      text: 'The harbour master said "no vessel may berth without a pilot" at the opening.',
    });

    await evident.ingestor.ingestRecords([
      { docId: 'harbour.md', title: 'Harbour', text: 'The lighthouse keeper logs every vessel in register LH-77.' },
    ]);
    expect(await evident.store.searchQuotes(analyzeQuery('pilot'), member, 3)).toEqual([]);
    expect((await evident.store.searchQuotes(analyzeQuery('LH-77'), member, 3)).map((hit) => hit.chunkId)).toEqual([
      'harbour.md#0',
    ]);
  });

  it('fills the extras of a version stored before they existed when it is ingested again, keeping its chunks', async () => {
    const record = { docId: 'harbour.md', title: 'Harbour', text: CONTRACT };
    await evident.ingestor.ingestRecords([record]);
    // What a store migrated to 007 holds for a document ingested before: a version without extras.
    const raw = new Database(join(dir, 'store.db'));
    raw.exec(
      'DELETE FROM summary_fts; DELETE FROM quote_fts; DELETE FROM chapter_summaries; DELETE FROM quotes; DELETE FROM document_extras;',
    );
    raw.close();
    expect(await evident.store.documentExtrasInfo('harbour.md')).toBeUndefined();
    const ingestedAt = (await evident.store.getDocument('harbour.md'))?.ingestedAt;

    const summary = await evident.ingestor.ingestRecords([record]);
    expect(summary.unchanged).toBe(1);
    expect(await evident.store.documentExtrasInfo('harbour.md')).toMatchObject({
      summaryMethod: 'extractive',
      summaries: 1,
    });
    expect((await evident.store.getDocument('harbour.md'))?.ingestedAt).toBe(ingestedAt);
    expect((await evident.store.searchSummaries(analyzeQuery('berth'), LOCAL_OPERATOR, 3)).length).toBe(1);
  });

  it('labels summaries by the chat model that wrote them, and falls back to extractive when it fails', async () => {
    const model = new RecordingChatModel([{ summary: 'HS-2031 governs berth allocation at the north quay.' }]);
    await evident.ingestor.ingestRecords([{ docId: 'harbour.md', title: 'Harbour', text: CONTRACT }], {
      summarizer: llmSummarizer({ id: 'fake:model', model }),
    });
    expect(model.prompts[0]).toContain('Harbour services agreement HS-2031');
    expect(await evident.store.documentExtrasInfo('harbour.md')).toMatchObject({
      summaryMethod: 'llm:fake:model',
      summaries: 1,
    });
    const [hit] = await evident.store.searchSummaries(analyzeQuery('north quay'), member, 1);
    expect(hit).toMatchObject({
      text: 'HS-2031 governs berth allocation at the north quay.',
      method: 'llm:fake:model',
    });

    const failing = new RecordingChatModel(['not json', 'still not json', 'never json']);
    await evident.ingestor.ingestRecords([{ docId: 'other.md', title: 'Other', text: CONTRACT }], {
      summarizer: llmSummarizer({ id: 'fake:bad', model: failing }),
    });
    expect(await evident.store.documentExtrasInfo('other.md')).toMatchObject({ summaryMethod: 'extractive' });
  });
});
