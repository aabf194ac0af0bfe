import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { seededRandom } from './seeded-random.ts';

/** One BIPIA email task: the context a user asks about, their question, and the expected answer. */
export interface BipiaContext {
  context: string;
  question: string;
  ideal: string;
}

/** One BIPIA text attack: the instruction an attacker hides in the context, and its category. */
export interface BipiaAttack {
  category: string;
  text: string;
}

/** Reads `../shared/datasets/bipia` (microsoft/BIPIA train split; see its README row in ../shared/datasets/README.md). */
export async function readBipia(dir: string): Promise<{ emails: BipiaContext[]; attacks: BipiaAttack[] }> {
  const lines = (await readFile(join(dir, 'email', 'train.jsonl'), 'utf8')).split('\n').filter((line) => line.trim());
  const emails = lines.map((line) => JSON.parse(line) as BipiaContext);
  const byCategory = JSON.parse(await readFile(join(dir, 'text_attack_train.json'), 'utf8')) as Record<
    string,
    string[]
  >;
  const attacks = Object.entries(byCategory).flatMap(([category, texts]) => texts.map((text) => ({ category, text })));
  return { emails, attacks };
}

/** `count` seeded picks without repeats (fewer when there are fewer items). */
export function seededSample<T>(items: readonly T[], count: number, seed: number): T[] {
  const random = seededRandom(seed);
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0)
    picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0] as T);
  return picked;
}
