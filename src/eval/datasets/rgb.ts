import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';
import type { EvalCase } from '../cases/eval-case.ts';
import { formatZodIssues } from '../cases/read-cases.ts';
import { groupName, type ConvertedSet } from './converted-set.ts';
import type { RgbVariant } from './convert-options.ts';

/** An answer element: a string, or (nested) alternatives of which any one will do. */
type AnswerElement = string | AnswerElement[];
const answerElement: z.ZodType<AnswerElement> = z.lazy(() => z.union([z.string(), z.array(answerElement)]));

const questionSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]).transform(String),
  query: z.string().min(1),
  /** Every element must be in the answer; a list element gives alternatives for that one element. */
  answer: z.union([z.string(), z.array(answerElement)]),
  positive: z.array(z.string()).default([]),
  negative: z.array(z.string()).default([]),
});
export type RgbQuestion = z.infer<typeof questionSchema>;

export { rgbVariants, type RgbVariant } from './convert-options.ts';

/** RGB's files: JSON lines (`zh_refine.json` is one object a line) or a JSON array. */
export function parseRgbQuestions(text: string, file: string): RgbQuestion[] {
  const trimmed = text.trim();
  let values: unknown[];
  try {
    values = trimmed.startsWith('[')
      ? (JSON.parse(trimmed) as unknown[])
      : trimmed
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as unknown);
  } catch (cause) {
    throw new ValidationError(`${file} is not JSON or JSON lines.`, {
      cause,
      hint: 'Pass an RGB questions file such as zh_refine.json (one JSON object a line).',
    });
  }
  return values.map((value, index) => {
    const parsed = questionSchema.safeParse(value);
    if (!parsed.success)
      throw new ValidationError(
        `${file}: question ${index + 1} is not an RGB question: ${formatZodIssues(parsed.error)}.`,
        { hint: 'Each line needs id, query, answer, positive and negative.' },
      );
    return parsed.data;
  });
}

/** The answer as `answer_contains` entries: each element a string or its alternatives (deeper nesting flattened). */
export function rgbAnswerEntries(answer: RgbQuestion['answer']): (string | string[])[] {
  const flat = (element: AnswerElement): string[] =>
    typeof element === 'string' ? [element.trim()].filter(Boolean) : element.flatMap(flat);
  const elements = typeof answer === 'string' ? [answer] : answer;
  return elements.flatMap((element): (string | string[])[] => {
    const alternatives = [...new Set(flat(element))];
    if (alternatives.length === 0) return [];
    return alternatives.length === 1 ? [alternatives[0] as string] : [alternatives];
  });
}

/** A deterministic generator in [0, 1) from a string seed (mulberry32 over the seed's hash), so a conversion repeats. */
function seededRandom(seed: string): () => number {
  let state = createHash('sha1').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export interface RgbOptions {
  limit?: number;
  /** `negative`: only the negative passages, expect a refusal; `positive`: positives among negatives; `mixed`: both cases. */
  variant?: RgbVariant;
  /** Passages per case, sampled as RGB does; absent means all of them (negatives only, or positives and negatives). */
  passages?: number;
  /** With `passages`: the share of them that are negatives in a positive case (RGB rounds ceil(passages × rate)). */
  noiseRate?: number;
  /** Seeds the sampling and the passage order. */
  seed?: number;
}

interface CaseDocs {
  variant: 'negative' | 'positive';
  positives: string[];
  negatives: string[];
}

/**
 * Which passages a case reads. RGB's sampling: ceil(passages × noise rate) negatives (all of `passages` for the
 * negative case) and the rest positives, each drawn at random; without `passages`, every passage of the kind.
 */
export function rgbCaseDocs(
  question: RgbQuestion,
  variant: 'negative' | 'positive',
  options: Pick<RgbOptions, 'passages' | 'noiseRate' | 'seed'>,
): CaseDocs {
  const random = seededRandom(`${options.seed ?? 0}:${question.id}:${variant}`);
  const positives = [...new Set(question.positive.map((text) => text.trim()).filter(Boolean))];
  const negatives = [...new Set(question.negative.map((text) => text.trim()).filter(Boolean))].filter(
    (text) => !positives.includes(text),
  );
  if (options.passages === undefined) return { variant, positives: variant === 'positive' ? positives : [], negatives };
  const negativeCount =
    variant === 'negative' ? options.passages : Math.ceil(options.passages * (options.noiseRate ?? 0));
  const positiveCount = variant === 'negative' ? 0 : options.passages - negativeCount;
  return {
    variant,
    positives: shuffled(positives, random).slice(0, positiveCount),
    negatives: shuffled(negatives, random).slice(0, negativeCount),
  };
}

/** A language tag from the question's script, so RGB's English files convert as well as its Chinese ones. */
const languageTag = (text: string): string => (/\p{Script=Han}/u.test(text) ? 'zh' : 'en');

/**
 * RGB → cases over each question's own passages. Every question is a corpus of its own: its passages are one text
 * document each, readable only by a per-question, per-variant group the case asks as (the negative case must not see
 * the positives the positive case reads). Doc ids say nothing of a passage's kind and follow a seeded shuffle, so
 * neither a name nor an order gives the answer away. The positives are not listed as relevant docs: each holds the
 * answer on its own, and retrieval is scored on finding all of them, which RGB does not ask.
 */
export async function convertRgb(file: string, options: RgbOptions = {}): Promise<ConvertedSet> {
  const variant = options.variant ?? 'negative';
  if (options.noiseRate !== undefined && !(options.noiseRate >= 0 && options.noiseRate <= 1))
    throw new ValidationError(`The noise rate must be between 0 and 1, got ${options.noiseRate}.`);
  const questions = parseRgbQuestions(await readFile(file, 'utf8'), file).slice(0, options.limit);
  const kinds: ('negative' | 'positive')[] = variant === 'mixed' ? ['negative', 'positive'] : [variant];
  const documents = new Map<string, { docId: string; text: string; groups: Set<string> }>();
  const cases: EvalCase[] = [];
  for (const question of questions) {
    const folder = groupName('rgb', question.id);
    const ordered = shuffled(
      [...new Set([...question.positive, ...question.negative].map((text) => text.trim()).filter(Boolean))],
      seededRandom(`${options.seed ?? 0}:${question.id}`),
    );
    const docIdOf = new Map(
      ordered.map((text, index) => [text, `${folder}/passage-${String(index + 1).padStart(2, '0')}.txt`]),
    );
    const answer = rgbAnswerEntries(question.answer);
    for (const kind of kinds) {
      const docs = rgbCaseDocs(question, kind, options);
      // A positive case with no positive passage (none in the data, or a noise rate of 1) is not that setting's case.
      if (kind === 'positive' && docs.positives.length === 0) continue;
      const group = groupName('rgb', `${question.id}-${kind}`);
      for (const text of [...docs.positives, ...docs.negatives]) {
        const docId = docIdOf.get(text) as string;
        const document = documents.get(docId) ?? { docId, text, groups: new Set<string>() };
        document.groups.add(group);
        documents.set(docId, document);
      }
      cases.push({
        id: `rgb-${question.id}-${kind}`,
        user: 'rgb',
        groups: [group],
        history: [],
        question: question.query.trim(),
        tags: [languageTag(question.query), 'rgb', kind],
        expect:
          kind === 'negative'
            ? { answerable: false }
            : { answerable: true, ...(answer.length ? { answer_contains: answer } : {}) },
      });
    }
  }
  const files = [...documents.values()]
    .sort((a, b) => a.docId.localeCompare(b.docId))
    .map(({ docId, text, groups }) => ({
      docId,
      content: `${text}\n`,
      acl: [...groups].map((group) => `group:${group}`),
    }));
  return { cases, files };
}
