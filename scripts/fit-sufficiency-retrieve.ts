/**
 * The retrieval half of fitting the offline sufficiency model: the dev sets turned into a corpus folder and cases,
 * each case asked of the offline `rag` agent exactly as `evident eval run` asks it, and what the agent had when it
 * judged answerability (its needs and its evidence) kept in a work folder outside the repository (it holds
 * dataset text). scripts/fit-sufficiency.ts reads it.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Evidence } from '../src/domain/evidence.ts';
import type { Turn } from '../src/domain/turn.ts';
import type { Principal } from '../src/domain/index.ts';
import type { EvalCase } from '../src/eval/cases/eval-case.ts';
import { parseCases } from '../src/eval/cases/read-cases.ts';
import { writeConvertedSet, type ConvertedSet } from '../src/eval/datasets/converted-set.ts';
import { convertMtrag } from '../src/eval/datasets/mtrag.ts';
import { convertRgb } from '../src/eval/datasets/rgb.ts';

export interface RetrievedCase {
  set: string;
  id: string;
  /** 1 when the case is answerable from the corpus, 0 when not. */
  label: number;
  question: string;
  needs: string[];
  evidence: Evidence[];
}

export interface DevCase {
  id: string;
  question: string;
  history: Turn[];
  label: number;
  principal: Principal;
  tags: string[];
}

export interface DevSet {
  name: string;
  corpus: string;
  cases: DevCase[];
}

const principalOf = (evalCase: EvalCase, users: ReadonlyMap<string, string[]> = new Map()): Principal => ({
  id: evalCase.user,
  groups: evalCase.groups ?? users.get(evalCase.user) ?? [],
  roles: ['member'],
});

/** A converted set (the converters `evident eval convert` uses) written to the work folder, split by a tag. */
async function converted(
  set: ConvertedSet,
  name: string,
  work: string,
  splitBy: readonly string[] = [],
): Promise<DevSet[]> {
  const out = join(work, name);
  rmSync(out, { recursive: true, force: true });
  const written = await writeConvertedSet(set, out);
  const cases = set.cases
    .filter((evalCase) => evalCase.expect.answerable !== undefined)
    .map((evalCase) => ({
      id: evalCase.id,
      question: evalCase.question,
      history: evalCase.history,
      label: evalCase.expect.answerable ? 1 : 0,
      principal: principalOf(evalCase),
      tags: evalCase.tags,
    }));
  if (splitBy.length === 0) return [{ name, corpus: written.corpusDir, cases }];
  return splitBy.map((tag) => ({
    name: `${name}-${tag}`,
    corpus: written.corpusDir,
    cases: cases.filter((item) => item.tags.includes(tag)),
  }));
}

/** RGB zh dev, both settings over each question's own passages: negative (label 0) and positive (label 1). */
export const rgbSets = async (file: string, work: string): Promise<DevSet[]> =>
  converted(await convertRgb(file, { variant: 'mixed' }), 'rgb', work, ['negative', 'positive']);

/** MTRAG-UN dev over its pooled reference passages, with the converter's answerability labels. */
export const mtragSets = async (file: string, work: string): Promise<DevSet[]> =>
  converted(await convertMtrag(file), 'mtrag', work);

/** The project's sample set: its cases that say whether they are answerable, asked as their user. */
export function sampleSet(repo: string): DevSet {
  const users = new Map(
    z
      .array(z.object({ name: z.string(), groups: z.array(z.string()) }))
      .parse(JSON.parse(readFileSync(join(repo, 'samples/users.json'), 'utf8')))
      .map((user) => [user.name, user.groups]),
  );
  const file = join(repo, 'src/eval/sets/sample-corpus.jsonl');
  const cases = parseCases(readFileSync(file, 'utf8'), file)
    .map((located) => located.evalCase)
    .filter((evalCase) => evalCase.expect.answerable !== undefined)
    .map((evalCase) => ({
      id: evalCase.id,
      question: evalCase.question,
      history: evalCase.history,
      label: evalCase.expect.answerable ? 1 : 0,
      principal: principalOf(evalCase, users),
      tags: evalCase.tags,
    }));
  return { name: 'sample', corpus: join(repo, 'samples/corpus'), cases };
}

const stateSchema = z
  .object({
    evidence: z.array(z.custom<Evidence>((value) => typeof value === 'object' && value !== null)).default([]),
    sub_questions: z.array(z.string()).default([]),
    standalone_question: z.string().default(''),
  })
  .passthrough();

/** Asks every case of a set of the offline rag agent on a fresh store and keeps what answerability was judged on. */
export async function retrieveSet(set: DevSet, work: string, limit?: number): Promise<RetrievedCase[]> {
  // Loaded only when retrieving: a refit from the cached cases needs the reader, not the whole engine.
  const { loadConfig } = await import('../src/config/index.ts');
  const { createEvident } = await import('../src/evident.ts');
  const db = join(work, `${set.name}.db`);
  rmSync(db, { force: true });
  const evident = await createEvident(loadConfig({ env: {}, cwd: work, flags: { db } }));
  try {
    await evident.ingestor.ingest([set.corpus]);
    const runtime = await evident.agents();
    const out: RetrievedCase[] = [];
    for (const item of set.cases.slice(0, limit ?? set.cases.length)) {
      const threadId = `fit-${randomUUID()}`;
      const run = await runtime.runs.start({
        agent: 'rag',
        threadId,
        principal: item.principal,
        action: { kind: 'ask', question: item.question, history: item.history },
        createThread: true,
      });
      await runtime.runs.wait(run.runId, new AbortController().signal);
      const { snapshot } = await runtime.runs.threadState(threadId, item.principal);
      const state = stateSchema.parse(snapshot?.values ?? {});
      const question = state.standalone_question || item.question;
      out.push({
        set: set.name,
        id: item.id,
        label: item.label,
        question,
        needs: state.sub_questions.length > 0 ? state.sub_questions : [question],
        evidence: state.evidence,
      });
    }
    return out;
  } finally {
    await evident.close?.();
  }
}

export const cachePath = (work: string, set: string): string => join(work, `retrieved-${set}.json`);

export function readCache(work: string, set: string): RetrievedCase[] | undefined {
  const file = cachePath(work, set);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RetrievedCase[]) : undefined;
}
