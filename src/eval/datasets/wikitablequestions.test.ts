import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.ts';
import { createEvident } from '../../evident.ts';
import { parseCases } from '../cases/read-cases.ts';
import { writeConvertedSet } from './converted-set.ts';
import { convertWikiTableQuestions, parseWtqQuestions, toStandardCsv } from './wikitablequestions.ts';

// A few lines in the dataset's own format: quoted fields with doubled quotes, `|` between answers, a shared table.
const QUESTIONS = [
  'id\tutterance\tcontext\ttargetValue',
  'nu-1\thow many affiliates does tv azteca have all together?\tcsv/204-csv/181.csv\t9',
  'nu-2\t"how long between ""sweet child o\' mine"" and ""nightrain""?"\tcsv/203-csv/72.csv\t1 year',
  'nu-3\twhich networks does televisa own?\tcsv/204-csv/181.csv\tCanal de las Estrellas|Canal 5',
].join('\n');
const NETWORKS =
  '"Network name","Owner","Affiliates"\n"Canal de las Estrellas","Televisa","10"\n"Canal 5","Televisa","4"\n"Azteca 7","TV Azteca","9"\n';
// The dataset escapes quotes with a backslash, as its csv/203-csv/72.csv does.
const SONGS = '"Song","Year","Size"\n"Sweet Child o\' Mine","1987","12\\""\n"Nightrain","1988","7\\""\n';

const root = mkdtempSync(join(tmpdir(), 'evident-wtq-'));
const src = join(root, 'wtq');
mkdirSync(join(src, 'csv/204-csv'), { recursive: true });
mkdirSync(join(src, 'csv/203-csv'), { recursive: true });
writeFileSync(join(src, 'questions.tsv'), QUESTIONS);
writeFileSync(join(src, 'csv/204-csv/181.csv'), NETWORKS);
writeFileSync(join(src, 'csv/203-csv/72.csv'), SONGS);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('WikiTableQuestions converter', () => {
  it('reads questions.tsv, unquoting CSV-style fields', () => {
    const questions = parseWtqQuestions(QUESTIONS, 'questions.tsv');
    expect(questions).toHaveLength(3);
    expect(questions[1]?.utterance).toBe('how long between "sweet child o\' mine" and "nightrain"?');
    expect(questions[2]).toMatchObject({
      context: 'csv/204-csv/181.csv',
      targetValue: 'Canal de las Estrellas|Canal 5',
    });
  });

  it('refuses a questions file without the expected columns', () => {
    expect(() => parseWtqQuestions('id\tquestion\nnu-1\twhat?', 'bad.tsv')).toThrow(
      /bad\.tsv: question 1 is not valid/,
    );
  });

  it('rewrites backslash-escaped quotes as standard CSV, cells unchanged', () => {
    expect(toStandardCsv(SONGS, '72.csv')).toBe(
      '"Song","Year","Size"\n"Sweet Child o\' Mine","1987","12"""\n"Nightrain","1988","7"""\n',
    );
  });

  it('makes one case per question: every answer value contained, table_query expected, its own table only', async () => {
    const set = await convertWikiTableQuestions(src);
    expect(set.files.map((file) => file.docId)).toEqual(['csv/204-csv/181.csv', 'csv/203-csv/72.csv']);
    expect(set.files[0]?.acl).toEqual(['group:wtq-204-csv-181']);
    expect(set.cases[2]).toMatchObject({
      id: 'wtq-nu-3',
      groups: ['wtq-204-csv-181'],
      tags: ['wtq', 'table'],
      expect: {
        answerable: true,
        answer_contains: ['Canal de las Estrellas', 'Canal 5'],
        tools: { expected: ['table_query'] },
      },
    });
    expect(set.cases[1]?.groups).toEqual(['wtq-203-csv-72']);
  });

  it('with --limit converts only the first questions and the tables they use; shared scope writes no ACL', async () => {
    const set = await convertWikiTableQuestions(src, { limit: 1, scope: 'shared' });
    expect(set.cases.map((c) => c.id)).toEqual(['wtq-nu-1']);
    expect(set.files).toHaveLength(1);
    expect(set.files[0]?.acl).toBeUndefined();
    expect(set.cases[0]?.groups).toEqual([]);
  });

  it("writes a cases file eval run reads and a corpus whose tables only the question's group can query", async () => {
    const out = join(root, 'out');
    const written = await writeConvertedSet(await convertWikiTableQuestions(src), out);
    expect(parseCases(readFileSync(written.casesFile, 'utf8'), written.casesFile)).toHaveLength(3);
    expect(JSON.parse(readFileSync(join(written.corpusDir, 'csv/204-csv/181.csv.acl.json'), 'utf8'))).toEqual({
      acl: ['group:wtq-204-csv-181'],
    });
    const evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
    try {
      expect(await evident.ingestor.ingest([written.corpusDir])).toMatchObject({ added: 2, failed: 0 });
      const member = { id: 'wtq', groups: ['wtq-204-csv-181'], roles: ['member' as const] };
      expect((await evident.store.listTables(member)).map((table) => table.docId)).toEqual(['csv/204-csv/181.csv']);
      expect(await evident.store.listTables({ ...member, groups: [] })).toEqual([]);
    } finally {
      await evident.close();
    }
    await expect(writeConvertedSet(await convertWikiTableQuestions(src), out)).rejects.toThrow(/is not empty/);
  });
});
