import type { AnswerType } from '../../text/language.ts';

const QUESTION_END = /[\s?？.!。！]+$/u;
/** Question leads that wrap a noun phrase: "What is <the fee of X>", "How much is <the fee>", "Tell me <the risks>". */
const WRAPPED = [
  /^(?:what|which)\s+(?:is|are|was|were|will be)\s+(.+)$/i,
  /^how (?:much|long)\s+(?:is|are|was|were)\s+(.+)$/i,
  /^(?:tell me|give me|show me|list|describe|explain|summari[sz]e)\s+(?:about\s+)?(.+)$/i,
];
const DETERMINER = /^(?:the|a|an|its|their|his|her|our|this|that|these|those|any|all)\b/i;

/**
 * The information a question asks for, as a noun phrase: "What is the termination fee of CT-2023-0077?" → "the
 * termination fee of CT-2023-0077"; "How many days of leave do staff get?" → "the number of days of leave staff get".
 * A question of another shape is returned without its question mark.
 */
export function informationNeed(question: string): string {
  const body = question.trim().replace(QUESTION_END, '');
  for (const pattern of WRAPPED) {
    const phrase = pattern.exec(body)?.[1]?.trim();
    if (!phrase) continue;
    // A phrase led by an identifier ("CT-2024-0193's fee") or a determiner reads as is; a bare noun takes "the".
    return DETERMINER.test(phrase) || /^[A-Z]{2,}[\w-]*'s\b/.test(phrase) ? phrase : `the ${phrase}`;
  }
  const count = /^how many\s+(.+?)\s+(?:do|does|did|are|were|is|was|can|will|may)\s+(.+)$/i.exec(body);
  if (count) return `the number of ${count[1]} ${count[2]}`;
  return body;
}

/** The head of a need, without article, owner or qualifier: "the termination fee of CT-2023-0077" → "termination fee". */
export function needTopic(need: string): string {
  return need
    .replace(DETERMINER, '')
    .replace(/^\s*[A-Z]{2,}[\w-]*'s\s+/, '')
    .replace(/\s+(?:of|for|in|under|from|between|with|to)\s+.*$/i, '')
    .trim();
}

/** How a refusal names the kind of value it did not find. */
const KIND_WORDS: Record<Exclude<AnswerType, 'any'>, string> = {
  number: 'number',
  amount: 'amount',
  date: 'date',
  duration: 'duration',
  person: 'person',
  organization: 'organisation',
  place: 'place',
  list: 'list',
  yes_no: 'yes-or-no answer',
  definition: 'definition',
};

export interface MissingContext {
  question: string;
  /** Identifiers the question names. */
  identifiers: readonly string[];
  /** Whether some retrieved chunk states all of those identifiers. */
  identifiersFound: boolean;
  /** Retrieved chunks about the question that still state no answer. */
  related: number;
  /** Chunks retrieved at all. */
  evidence: number;
  kind: AnswerType;
}

/**
 * What is missing, said as the fact that is missing and why the evidence falls short: "the termination fee of
 * CT-2023-0077 (the evidence found mentions CT-2023-0077 but states no termination fee)" — not the question again.
 */
export function describeMissing(context: MissingContext): string {
  const need = informationNeed(context.question);
  // Only a noun phrase names what the evidence lacks; other shapes (or CJK questions) fall back to the answer's kind.
  const topic = need === context.question.trim().replace(QUESTION_END, '') ? '' : needTopic(need);
  const lacking = topic || (context.kind === 'any' ? 'answer' : KIND_WORDS[context.kind]);
  const ids = context.identifiers.join(', ');
  let why: string;
  if (context.evidence === 0) why = 'no evidence was retrieved';
  else if (ids && context.identifiersFound) why = `the evidence found mentions ${ids} but states no ${lacking}`;
  else if (ids) why = `no retrieved evidence mentions ${ids}`;
  else if (context.related > 0) why = `the evidence found is related but states no ${lacking}`;
  else why = `no retrieved evidence is about ${topic || 'it'}`;
  return `${need} (${why})`;
}

const normalize = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * A model's list of what is missing, made to say what is missing: an item that merely repeats the question, or an
 * empty list on a refusal, becomes the question's information need explained by the model's own reasons.
 */
export function missingFromVerdict(
  question: string,
  verdict: { answerable: boolean; reasons: readonly string[]; missing_information: readonly string[] },
): string[] {
  const why = verdict.reasons
    .map((reason) => reason.trim().replace(/[.]+$/, ''))
    .filter(Boolean)
    .join('; ');
  const explained = `${informationNeed(question)}${why ? ` (${why})` : ''}`;
  const asked = normalize(question);
  const items = verdict.missing_information.map((item) => (normalize(item) === asked ? explained : item));
  return items.length === 0 && !verdict.answerable ? [explained] : items;
}
