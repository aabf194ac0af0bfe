import { expect, it } from 'vitest';
import { csvLoader } from '../../ingest/loaders/csv-loader.ts';
import { describeWith, sharedDataset } from '../../testing/requirements.ts';
import { convertMusique } from './musique.ts';
import { convertWikiTableQuestions } from './wikitablequestions.ts';

// The shared copies of the datasets (read in place, never copied into the repository), converted whole.
describeWith(sharedDataset('wikitablequestions'), 'the shared WikiTableQuestions sample', (wtq) => {
  it('converts every question, and every table loads as a SQL table with its rows', async () => {
    const set = await convertWikiTableQuestions(wtq);
    expect(set.cases).toHaveLength(150);
    expect(set.files).toHaveLength(108);
    for (const file of set.files) {
      const loaded = await csvLoader.load(Buffer.from(file.content), file.docId);
      expect(loaded.tables?.[0]?.rows.length, file.docId).toBeGreaterThan(0);
    }
    expect(set.cases.every((c) => c.expect.answer_contains?.length)).toBe(true);
  });
});

describeWith(sharedDataset('musique'), 'the shared MuSiQue sample', (musique) => {
  it('converts 100 questions over 1,890 distinct paragraphs, every supporting one among them', async () => {
    const set = await convertMusique(musique);
    expect(set.cases).toHaveLength(100);
    expect(set.files).toHaveLength(1890);
    const docIds = new Set(set.files.map((file) => file.docId));
    for (const evalCase of set.cases) {
      expect(evalCase.expect.relevant_docs?.length, evalCase.id).toBeGreaterThanOrEqual(2);
      for (const docId of evalCase.expect.relevant_docs ?? []) expect(docIds.has(docId), docId).toBe(true);
    }
  });
});
