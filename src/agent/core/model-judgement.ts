import { z } from 'zod';
import { missingFromVerdict } from '../offline-qa/information-need.ts';
import { CITE_BY_ID } from './llm-prompts.ts';
import { groundExtracted } from './model-evidence.ts';
import type { Answerability, Evidence } from '../../domain/evidence.ts';
import { SUFFICIENT_AT, isSufficient } from '../offline-qa/sufficiency.ts';

const MAX_EXTRACTED = 12;

const judgement = z.object({
  supporting: z
    .array(z.object({ chunk_id: z.string().min(1), sentence: z.string().min(1) }))
    .max(MAX_EXTRACTED)
    .describe(
      'The sentences of the evidence that state the answer, copied exactly, each with the chunk_id of its passage',
    ),
  sufficiency: z
    .number()
    .min(0)
    .max(1)
    .describe('How likely (0..1) it is that the supporting sentences state the whole answer'),
  reasons: z.array(z.string()),
  missing_information: z.array(z.string()),
});

/**
 * The model's half of the answerability decision (extract, then judge): the sentences that state the answer, by
 * evidence id, and a sufficiency in 0..1 read with the same threshold as the offline judge. A reply in the older
 * verdict shape (a bare `answerable` boolean and no sufficiency) is read as certain either way, with nothing extracted.
 */
export const modelJudgementSchema = z.preprocess((raw) => {
  if (typeof raw !== 'object' || raw === null || 'sufficiency' in raw) return raw;
  const legacy = raw as { answerable?: unknown; supporting?: unknown };
  if (typeof legacy.answerable !== 'boolean') return raw;
  return { supporting: [], ...raw, sufficiency: legacy.answerable ? 1 : 0 };
}, judgement);
export type ModelJudgement = z.output<typeof judgement>;

/** The instructions of the judging step, shared by every agent that asks a model whether its evidence suffices. */
export const JUDGE_SYSTEM =
  'First EXTRACT: copy into supporting, word for word, the sentences of the evidence that state the answer to the question, each with the chunk_id of its passage (none when no sentence does). ' +
  `Then JUDGE: sufficiency is the probability (0 to 1) that those sentences state the whole answer, not merely the topic; ${SUFFICIENT_AT} or more means the question can be answered from them. ` +
  'In reasons, say what the evidence does state. In missing_information, name each missing fact as a noun phrase with what the ' +
  'evidence shows instead, e.g. "the termination fee of CT-2023-0077 (the evidence mentions CT-2023-0077 but states no termination fee)"; never repeat the question. ' +
  CITE_BY_ID;

/**
 * The verdict a model's judgement makes: `support` holds only the extracted sentences that occur in the evidence (under
 * the chunk that contains them), and it is answerable exactly when `isSufficient(sufficiency)`. A model that extracted
 * sentences none of which the evidence contains has shown nothing: its sufficiency is capped below the threshold, since
 * what it judged sufficient is not in the evidence.
 */
export function verdictFromJudgement(
  question: string,
  judged: ModelJudgement,
  evidence: readonly Evidence[],
  query = question,
): Answerability {
  const grounded = groundExtracted(judged.supporting, evidence);
  const invented = judged.supporting.length > 0 && grounded.kept.length === 0;
  const sufficiency = invented ? Math.min(judged.sufficiency, nextBelow(SUFFICIENT_AT)) : judged.sufficiency;
  const answerable = isSufficient(sufficiency);
  const reasons = [...judged.reasons];
  if (invented) reasons.push(`none of the ${judged.supporting.length} extracted sentence(s) occurs in the evidence`);
  else if (grounded.dropped.length > 0)
    reasons.push(`${grounded.dropped.length} extracted sentence(s) not in the evidence dropped`);
  const missing = missingFromVerdict(question, {
    answerable,
    reasons: judged.reasons,
    missing_information: judged.missing_information,
  });
  return {
    answerable,
    sufficiency,
    reasons,
    missing_information: missing,
    support: grounded.kept.map((item) => ({ query, chunk_id: item.chunk_id, sentence: item.sentence })),
  };
}

/** The largest sufficiency that still refuses: what an ungrounded "sufficient" becomes. */
const nextBelow = (threshold: number): number => Math.max(0, Math.round((threshold - 0.01) * 100) / 100);
