import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalCase } from '../cases/eval-case.ts';
import { parseCases } from '../cases/read-cases.ts';
import { principalForCase, readUsers, type UserDirectory } from '../cases/read-users.ts';
import { containsNormalized } from '../layers/normalize-answer-text.ts';
import { containsAnswerEntry } from '../layers/score-answer.ts';
import { mayRead, readCorpusDocuments, type CorpusDocument } from './corpus-documents.ts';
import { SAMPLE_CORPUS_CASES, SAMPLE_CORPUS_DIR, SAMPLE_USERS } from './sample-corpus-paths.ts';

// The set is only worth its figures if every expectation is true of the corpus: these checks read the files the way
// the ingester does (text and ACLs) and hold each case against them.
let cases: EvalCase[];
let users: UserDirectory;
let documents: Map<string, CorpusDocument>;
const located = async () => parseCases(await readFile(SAMPLE_CORPUS_CASES, 'utf8'), SAMPLE_CORPUS_CASES);

beforeAll(async () => {
  cases = (await located()).map((entry) => entry.evalCase);
  users = await readUsers(SAMPLE_USERS);
  documents = await readCorpusDocuments(SAMPLE_CORPUS_DIR);
});

const principalOf = (evalCase: EvalCase) => principalForCase({ evalCase, file: SAMPLE_CORPUS_CASES, line: 0 }, users);
const visibleTexts = (evalCase: EvalCase) =>
  [...documents.values()].filter((doc) => mayRead(doc.acl, principalOf(evalCase))).map((doc) => doc.text);

describe('sample-corpus.jsonl', () => {
  it('has at least 60 cases covering every kind of question the issue names', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const tags = new Set(cases.flatMap((evalCase) => evalCase.tags));
    for (const tag of [
      'exact-id',
      'semantic',
      'multi-part',
      'follow-up',
      'unanswerable',
      'permission',
      'allowed',
      'denied',
      'table',
      'zh',
      'memory',
    ]) {
      expect(tags, tag).toContain(tag);
    }
  });

  it('asks only as the users of samples/users.json, with their stored groups', () => {
    for (const evalCase of cases) {
      expect(users.groups.has(evalCase.user), evalCase.id).toBe(true);
      expect(evalCase.groups, evalCase.id).toBeUndefined();
    }
  });

  it('names only documents that exist and that the asking user may read', () => {
    for (const evalCase of cases) {
      for (const docId of [...(evalCase.expect.relevant_docs ?? []), ...(evalCase.expect.cite_docs ?? [])]) {
        const doc = documents.get(docId);
        expect(doc, `${evalCase.id}: ${docId}`).toBeDefined();
        expect(mayRead(doc?.acl ?? [], principalOf(evalCase)), `${evalCase.id} may read ${docId}`).toBe(true);
      }
    }
  });

  it('expects answers that are written in the relevant documents', () => {
    for (const evalCase of cases.filter((c) => c.expect.answer_contains && c.expect.relevant_docs)) {
      const texts = (evalCase.expect.relevant_docs ?? []).map((docId) => documents.get(docId)?.text ?? '');
      for (const needle of evalCase.expect.answer_contains ?? []) {
        expect(
          texts.some((text) => containsAnswerEntry(text, needle)),
          `${evalCase.id}: "${String(needle)}"`,
        ).toBe(true);
      }
    }
  });

  it('expects a standalone question to name what the conversation (or the question itself) named', () => {
    for (const evalCase of cases.filter((c) => c.expect.standalone_contains)) {
      const said = [...evalCase.history.map((turn) => turn.content), evalCase.question].join('\n');
      for (const needle of evalCase.expect.standalone_contains ?? [])
        expect(containsNormalized(said, needle), `${evalCase.id}: ${needle}`).toBe(true);
    }
    for (const evalCase of cases.filter((c) => c.tags.includes('follow-up'))) {
      expect(evalCase.history.length, evalCase.id).toBeGreaterThan(0);
      expect(evalCase.expect.standalone_contains?.length, evalCase.id).toBeGreaterThan(0);
    }
  });

  it('expects nothing to cite or contain of a question that cannot be answered', () => {
    for (const evalCase of cases.filter((c) => c.expect.answerable === false)) {
      expect(
        evalCase.tags.some((tag) => tag === 'unanswerable' || tag === 'denied'),
        evalCase.id,
      ).toBe(true);
      expect(
        evalCase.expect.answer_contains ?? evalCase.expect.cite_docs ?? evalCase.expect.relevant_docs,
        evalCase.id,
      ).toBeUndefined();
    }
  });

  it('pairs every denied question with the same question by a user who may see its answer, which the denied user cannot', () => {
    const denied = cases.filter((c) => c.tags.includes('denied'));
    expect(denied.length).toBeGreaterThanOrEqual(5);
    for (const evalCase of denied) {
      const allowed = cases.find(
        (c) => c.tags.includes('allowed') && c.question === evalCase.question && c.user !== evalCase.user,
      );
      expect(allowed, evalCase.id).toBeDefined();
      if (!allowed) continue;
      for (const docId of allowed.expect.relevant_docs ?? []) {
        expect(
          mayRead(documents.get(docId)?.acl ?? [], principalOf(evalCase)),
          `${evalCase.user} must not read ${docId}`,
        ).toBe(false);
      }
      // Nothing else the denied user can read holds the answer either, so a refusal is the only right outcome.
      const texts = visibleTexts(evalCase);
      for (const needle of allowed.expect.answer_contains ?? []) {
        expect(
          texts.some((text) => containsAnswerEntry(text, needle)),
          `${evalCase.id}: "${String(needle)}" readable`,
        ).toBe(false);
      }
    }
  });

  it('sends aggregations to table_query and expects no retrieved documents of them', () => {
    for (const evalCase of cases.filter((c) => c.tags.includes('table'))) {
      expect(evalCase.expect.tools?.expected, evalCase.id).toContain('table_query');
      expect(evalCase.expect.relevant_docs, evalCase.id).toBeUndefined();
    }
  });

  it('expects save_memory of a "remember that" request and nothing of its (interrupted) answer', () => {
    const interrupts = cases.filter((c) => c.tags.includes('interrupt'));
    expect(interrupts.length).toBeGreaterThan(0);
    for (const evalCase of interrupts) {
      expect(evalCase.question).toMatch(/^remember\b/i);
      expect(evalCase.expect.tools?.expected).toEqual(['save_memory']);
      expect(Object.keys(evalCase.expect)).toEqual(['tools']);
    }
  });
});
