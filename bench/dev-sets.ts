/**
 * The public dev sets the answer benches run on, each prepared in a folder of its own under `work`: RGB zh (negative
 * and positive), MTRAG-UN, MuSiQue and WikiTableQuestions converted from `../shared/datasets`, the BERT-paper questions
 * on a copy of the paper, and the sample set. A set whose data is absent is skipped with the reason.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCases } from '../src/eval/cases/read-cases.ts';
import { writeConvertedSet, type ConvertedSet } from '../src/eval/datasets/converted-set.ts';
import { convertMtrag } from '../src/eval/datasets/mtrag.ts';
import { convertMusique } from '../src/eval/datasets/musique.ts';
import { convertRgb } from '../src/eval/datasets/rgb.ts';
import { convertWikiTableQuestions } from '../src/eval/datasets/wikitablequestions.ts';
import { SAMPLE_CORPUS_CASES, SAMPLE_CORPUS_DIR, SAMPLE_USERS } from '../src/eval/sets/sample-corpus-paths.ts';

export const DEV_SETS = ['rgb-negative', 'rgb-positive', 'mtrag', 'musique', 'wtq', 'paper-qa', 'sample'] as const;
export type DevSet = (typeof DEV_SETS)[number];

/** What a set runs on: a cases file and its corpus (and users), or why it cannot run here. */
export type PreparedSet = { casesFile: string; corpus: string; users?: string } | { skip: string };

export interface DevSetOptions {
  /** The folder holding the datasets (`../shared/datasets`). */
  shared: string;
  /** The first n cases of each set. */
  limit?: number;
}

export async function prepareDevSet(set: DevSet, work: string, options: DevSetOptions): Promise<PreparedSet> {
  const { shared, limit } = options;
  const limited = limit ? { limit } : {};
  const converted = async (data: string, convert: (path: string) => Promise<ConvertedSet>): Promise<PreparedSet> => {
    const path = join(shared, data);
    if (!existsSync(path)) return { skip: `${path} is absent` };
    const written = await writeConvertedSet(await convert(path), join(work, set));
    return { casesFile: written.casesFile, corpus: written.corpusDir };
  };
  switch (set) {
    case 'rgb-negative':
      return converted('rgb-zh/zh_refine_dev.jsonl', (path) => convertRgb(path, { variant: 'negative', ...limited }));
    case 'rgb-positive':
      return converted('rgb-zh/zh_refine_dev.jsonl', (path) => convertRgb(path, { variant: 'positive', ...limited }));
    case 'mtrag':
      return converted('mtrag-un/reference_dev.jsonl', (path) => convertMtrag(path, limited));
    case 'musique':
      return converted('musique', (path) => convertMusique(path, limited));
    case 'wtq':
      return converted('wikitablequestions', (path) => convertWikiTableQuestions(path, limited));
    case 'paper-qa': {
      // The corpus is a folder holding a copy of the paper: ingestion skips symbolic links.
      const casesFile = join(shared, 'paper-qa/cases.jsonl');
      const users = join(shared, 'paper-qa/users.json');
      const pdf = join(shared, 'pdfs/bert-1810.04805.pdf');
      const absent = [casesFile, users, pdf].find((path) => !existsSync(path));
      if (absent) return { skip: `${absent} is absent` };
      const corpus = join(work, 'paper-qa-corpus');
      mkdirSync(corpus, { recursive: true });
      copyFileSync(pdf, join(corpus, 'bert-1810.04805.pdf'));
      return { casesFile: await limitedCases(casesFile, work, set, limit), corpus, users };
    }
    case 'sample':
      return {
        casesFile: await limitedCases(SAMPLE_CORPUS_CASES, work, set, limit),
        corpus: SAMPLE_CORPUS_DIR,
        users: SAMPLE_USERS,
      };
  }
}

/** The first `limit` cases of a cases file, through a trimmed copy (the whole file without a limit). */
async function limitedCases(casesFile: string, work: string, name: string, limit: number | undefined): Promise<string> {
  if (!limit) return casesFile;
  const trimmed = join(work, `${name}-cases.jsonl`);
  const cases = (await readCases(casesFile)).slice(0, limit);
  writeFileSync(trimmed, `${cases.map(({ evalCase }) => JSON.stringify(evalCase)).join('\n')}\n`);
  return trimmed;
}

/** A temporary config file setting the evidence gate: `enforce` (what is measured) or `off` (the agents' proposals). */
export function gateConfigFile(dir: string, gate: string): string {
  if (gate !== 'enforce' && gate !== 'off')
    throw new Error(`--gate must be enforce or off, got ${JSON.stringify(gate)}.`);
  const file = join(dir, 'evident.config.json');
  writeFileSync(file, JSON.stringify({ agents: { evidenceGate: gate } }));
  return file;
}
