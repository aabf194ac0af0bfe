import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.ts';
import type { Principal, TableRecord } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { openAgent } from '../../testing/agent-client.ts';
import { oneNeed, routeTo } from '../../testing/rag-model-script.ts';
import { RecordingChatModel } from '../../testing/recording-chat-model.ts';
import { describeWith, sharedDataset } from '../../testing/requirements.ts';

// The real paper: two-column pages, tables beside prose and beside each other, subscripts in row labels.
const BERT = sharedDataset('pdfs/bert-1810.04805.pdf');
const ALICE: Principal = { id: 'alice', groups: ['research'], roles: ['member'] };
const BOB: Principal = { id: 'bob', groups: ['sales'], roles: ['member'] };
const LIMITS = { maxRows: 50, timeoutMs: 5_000 };

describeWith(BERT, 'PDF tables of the BERT paper', (path) => {
  const root = mkdtempSync(join(tmpdir(), 'evident-bert-tables-'));
  let evident: Evident;
  let glue: TableRecord;
  beforeAll(async () => {
    const file = join(root, 'bert.pdf');
    copyFileSync(path, file);
    evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
    expect(await evident.ingestor.ingest([file], { acl: ['group:research'] })).toMatchObject({ added: 1, failed: 0 });
    const tables = await evident.store.listTables(ALICE);
    glue = tables.find((table) => table.title === 'bert / page 6 / Table 1')!;
  }, 60_000);
  afterAll(async () => {
    await evident?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('finds all eight of the paper’s tables, each where it is, and nothing else (the author block is no table)', async () => {
    const tables = await evident.store.listTables(ALICE);
    // Precision and recall over the whole paper: tables beside prose, beside each other and in the appendix.
    expect(tables.map((table) => table.title)).toEqual([
      'bert / page 6 / Table 1',
      'bert / page 7 / Table 2',
      'bert / page 7 / Table 3',
      'bert / page 7 / Table 4',
      'bert / page 8 / Table 5',
      'bert / page 9 / Table 6',
      'bert / page 9 / Table 7',
      'bert / page 16 / Table 8',
    ]);
  });

  it('reads a table beside another, its section rows as a column, and a header set as one run of text', async () => {
    const tables = await evident.store.listTables(ALICE);
    const squad = tables.find((table) => table.title === 'bert / page 7 / Table 2')!;
    expect(squad.columns.map((column) => column.name)).toEqual([
      'Section',
      'System',
      'Dev EM',
      'Dev F1',
      'Test EM',
      'Test F1',
    ]);
    const ours = await evident.store.queryTables(
      `SELECT "System", "Test F1" FROM ${squad.sqlName} WHERE "Section" = 'Ours' AND "Test F1" IS NOT NULL`,
      ALICE,
      LIMITS,
    );
    expect(ours.rows).toEqual([
      ['BERT LARGE (Sgl.+TriviaQA)', 91.8],
      ['BERT LARGE (Ens.+TriviaQA)', 93.2],
    ]);
    const ablation = tables.find((table) => table.title === 'bert / page 8 / Table 5')!;
    expect(ablation.columns.map((column) => column.name)).toEqual([
      'Tasks',
      'MNLI-m (Acc)',
      'QNLI (Acc)',
      'MRPC (Acc)',
      'SST-2 (Acc)',
      'SQuAD (F1)',
    ]);
    const masking = tables.find((table) => table.title === 'bert / page 16 / Table 8')!;
    expect(masking.rowCount).toBe(6);
    const ner = await evident.store.queryTables(`SELECT * FROM ${masking.sqlName} LIMIT 1`, ALICE, LIMITS);
    expect(ner.rows).toEqual([[80, 10, 10, 84.2, 95.4, 94.9]]);
  });

  it('reads the GLUE results (Table 1, page 6) with its header and numeric score columns', async () => {
    expect(glue.columns.map((column) => `${column.name}:${column.type}`)).toEqual([
      'System:text',
      'MNLI-(m/mm):text',
      'QQP:real',
      'QNLI:real',
      'SST-2:real',
      'CoLA:real',
      'STS-B:real',
      'MRPC:real',
      'RTE:real',
      'Average:real',
    ]);
    expect(glue.rowCount).toBe(5);
    // The caption is the table's description, whole: its three lines and the footnote it runs on into.
    expect(glue.description).toMatch(/^Table 1: GLUE Test results, scored by the evaluation server/);
    expect(glue.description).toContain('We exclude entries that use BERT as one of their components.');
    expect(glue.sqlName).toBe('tbl_bert_pdf_p6_t1');
  });

  it('answers a score from SQL under the document’s ACL, and tells nobody else the table exists', async () => {
    const large = await evident.store.queryTables(
      `SELECT "MNLI-(m/mm)", "Average" FROM ${glue.sqlName} WHERE "System" = 'BERT LARGE'`,
      ALICE,
      LIMITS,
    );
    expect(large.rows).toEqual([['86.7/85.9', 82.1]]);
    const best = await evident.store.queryTables(
      `SELECT "System" FROM ${glue.sqlName} ORDER BY "CoLA" DESC LIMIT 1`,
      ALICE,
      LIMITS,
    );
    expect(best.rows).toEqual([['BERT LARGE']]);
    expect(await evident.store.listTables(BOB)).toEqual([]);
    const refused = await evident.store
      .queryTables(`SELECT * FROM ${glue.sqlName}`, BOB, LIMITS)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(String((refused as Error).message)).not.toContain('BERT');
  });

  it('retrieves the table’s row chunk for a search, with the table’s page', async () => {
    const trace = await evident.search.search('BERT LARGE CoLA STS-B score GLUE', ALICE, { topK: 5 });
    const row = trace.results.find((result) =>
      result.chunk.text.includes('System: BERT LARGE | MNLI-(m/mm): 86.7/85.9'),
    );
    expect(row?.chunk.page).toBe(6);
    // Table 1 opens page 6 (a float above the text), so it sits under the section the page before ended in.
    expect(row?.chunk.headingPath.at(-1)).toBe('4.1 GLUE');
    expect((await evident.search.search('BERT LARGE CoLA STS-B score GLUE', BOB, { topK: 5 })).results).toEqual([]);
  });

  it('offline (no chat model), the rag agent writes the SQL itself and cites the row on page 6', async () => {
    const agent = await openAgent(evident, 'rag');
    try {
      const run = await agent.ask({ question: 'What is the Average of BERT LARGE in Table 1?', principal: ALICE });
      expect(run.answer?.answer).toContain('82.1');
      expect(run.tool_calls).toEqual([
        expect.objectContaining({
          name: 'table_query',
          ok: true,
          arguments: { sql: expect.stringContaining(glue.sqlName) },
        }),
      ]);
      expect(run.answer?.citations).toEqual([
        expect.objectContaining({ doc_id: 'bert.pdf', page: 6, quote: expect.stringContaining('System: BERT LARGE') }),
      ]);
      // Bob asks the same: the table is not his to read, so nothing of it is cited or computed.
      const refused = await agent.ask({ question: 'What is the Average of BERT LARGE in Table 1?', principal: BOB });
      expect(JSON.stringify(refused.answer ?? {})).not.toContain('82.1');
      expect(refused.tool_calls.filter((call) => call.ok)).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it('the rag agent answers the average from the table and cites the row on page 6', async () => {
    // The model writes SQL against the table the prompt lists (checked below), as a real one would.
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('table'),
      { sql: `SELECT "Average" FROM ${glue.sqlName} WHERE "System" = 'BERT LARGE'` },
    ]);
    const agent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model } });
    try {
      // The row names BERT LARGE and its Average; the caption is in the prompt, not in the cited row, so a "GLUE" the
      // question named would be a name the cited evidence does not state, and the gate would send the run to the text.
      const run = await agent.ask({ question: 'What is the average score of BERT LARGE?', principal: ALICE });
      expect(run.status).toBe('answered');
      expect(run.answer?.answer).toContain('82.1');
      expect(run.answer?.citations).toEqual([
        expect.objectContaining({ page: 6, quote: expect.stringContaining('System: BERT LARGE') }),
      ]);
      expect(model.prompts[2]).toContain(glue.sqlName);
      expect(model.prompts[2]).toContain('caption: Table 1: GLUE Test results');
    } finally {
      await agent.close();
    }
  });
});
