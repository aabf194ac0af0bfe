import type { AnswerSpan, AnswerType } from '../language.ts';
import { namedThings } from './nlp.ts';

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const NUMBER_WORD =
  '(?:thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|several)';
const UNIT = '(?:seconds?|minutes?|hours?|days?|business days?|working days?|weeks?|months?|years?|quarters?|decades?)';
/** What wear is counted in: "every 10,000 km", "every 500 cycles". */
const USAGE = '(?:km|kilometres|kilometers|miles|cycles|runs|uses|shifts|batches|flights|landings)';
const NUMERAL = '(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?';

const PATTERNS: Record<'amount' | 'date' | 'duration' | 'number', RegExp[]> = {
  amount: [
    new RegExp(`[$€£¥]\\s?${NUMERAL}(?:\\s?(?:k|m|bn|million|billion|thousand)\\b)?`, 'gi'),
    new RegExp(`\\b${NUMERAL}\\s?(?:usd|eur|gbp|dollars|euros|pounds|cents)\\b`, 'gi'),
    new RegExp(`\\b(?:usd|eur|gbp)\\s?${NUMERAL}`, 'gi'),
    new RegExp(`\\b${NUMERAL}\\s?(?:%|percent\\b)`, 'gi'),
  ],
  date: [
    new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\.?(?:\\s+\\d{4})?\\b`, 'gi'),
    new RegExp(`\\b${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b`, 'gi'),
    new RegExp(`\\b${MONTH}\\s+\\d{4}\\b`, 'gi'),
    /\b\d{4}-\d{2}-\d{2}\b/g,
    /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g,
    /\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/gi,
    /\bQ[1-4](?:\s+\d{4})?\b/g,
    /\b(?:1[5-9]|20)\d{2}s?\b/g,
  ],
  duration: [
    // How often: "every 90 days", "every two thousand operating hours", "once a year", "twice per quarter", "monthly".
    new RegExp(
      `\\b(?:(?:every|each)\\s+(?:other\\s+)?(?:(?:${NUMERAL}|${NUMBER_WORD})(?:[\\s-]+(?:thousand|million))?\\s+)?(?:[a-z]+\\s+)?|(?:once|twice|(?:${NUMERAL}|${NUMBER_WORD})\\s+times)\\s+(?:a|an|per|each|every)\\s+)(?:${UNIT}|${USAGE})\\b`,
      'gi',
    ),
    /\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|biannually)\b/gi,
    new RegExp(
      `\\b(?:within\\s+|after\\s+|for\\s+|up to\\s+|at least\\s+)?(?:${NUMERAL}|${NUMBER_WORD})(?:\\s*(?:-|to)\\s*(?:${NUMERAL}|${NUMBER_WORD}))?[\\s-]+(?:calendar\\s+)?${UNIT}\\b`,
      'gi',
    ),
  ],
  number: [
    new RegExp(
      `[$€£¥]?\\b${NUMERAL}(?:\\s?(?:%|k|m|million|billion|thousand)\\b)?(?:\\s+(?!(?:between|and|or|to|the|of|in|on|for|with|is|are|was|were|by|at|from)\\b)[a-z]+)?`,
      'gi',
    ),
    new RegExp(`\\b${NUMBER_WORD}\\b`, 'gi'),
  ],
};

/** Where identifiers sit in a sentence: their digits (CT-2024-0193, HIP-3, v2.1) are names, not values. */
const IDENTIFIER_LIKE = /[\p{L}_]+[-_./]?\d[\w.-]*|\d+[-_/][\p{L}][\w-]*|[\w]+(?:-[\w]+)*-\d[\w-]*/gu;

function regexSpans(sentence: string, type: 'amount' | 'date' | 'duration' | 'number'): AnswerSpan[] {
  const out: AnswerSpan[] = [];
  const names = [...sentence.matchAll(IDENTIFIER_LIKE)].map(
    (match) => [match.index ?? 0, (match.index ?? 0) + match[0].length] as const,
  );
  const inName = (start: number, end: number) =>
    names.some(([from, to]) => start >= from && end <= to + 1 && start < to);
  for (const pattern of PATTERNS[type]) {
    for (const match of sentence.matchAll(pattern)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      if (
        out.some((span) => start < span.end && end > span.start) ||
        inName(start, start + (match[0].match(/^[^\d]*\d[\d,.]*/)?.[0].length ?? 1))
      )
        continue;
      out.push({ text: match[0].trim(), start, end, type });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function spansOf(sentence: string, items: readonly string[], type: AnswerType): AnswerSpan[] {
  const out: AnswerSpan[] = [];
  for (const item of items) {
    const start = sentence.indexOf(item);
    if (start >= 0) out.push({ text: item, start, end: start + item.length, type });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The words a deadline's date follows ("until 30 April", "no later than 1 May"). */
const DEADLINE = /\b(?:until|till|by|before|through|no later than|ending|ends?)\s+(?:the\s+)?$/i;

/** "X is Y", "X means Y", "X refers to Y": the Y. */
const DEFINING = /\b(?:is|are|means|mean|refers to|stands for|is defined as|describes)\s+(.{3,})$/i;
const POLARITY = /\b(?:no|not|never|none|cannot|can't|won't|doesn't|don't|isn't|aren't|only|must|may|always|yes)\b/gi;
/** A sentence that enumerates: commas or semicolons between items, or "and"/"or" joining several. */
const ENUMERATION = /[^,;:]+(?:[,;]\s*[^,;]+){1,}|[^,;:]+\s(?:and|or)\s[^,;]+/i;

/** A capitalised name before ", who": a person, whether or not the tagger knows the name ("Hall, who was …"). */
const WHO_APPOSITIVE = /(?:\p{Lu}\.\s?)*\p{Lu}[\p{Ll}'’-]+(?:\s+(?:\p{Lu}\.\s?)*\p{Lu}[\p{Ll}'’-]+)*(?=,\s+who\b)/gu;

/**
 * A role or body a policy names where a story names a person ("the approval of a director", "only the treasury group
 * may …"): what a "who" question about a rule asks.
 */
const ROLE =
  /\b(?:the|a|an|your|their)\s+(?:[a-z-]+\s+){0,2}?(?:group|team|department|committee|board|director|manager|officer|owner|approver|supervisor|administrator|desk|on-call)\b/giu;

/**
 * People a sentence names: the tagger's (a role it tags, "first president", is no name) and who-appositives; in a
 * sentence naming nobody, the roles it names.
 */
function peopleIn(sentence: string): string[] {
  const tagged = namedThings(sentence).people.filter((name) => /\p{Lu}/u.test(name));
  const appositive = [...sentence.matchAll(WHO_APPOSITIVE)]
    .map((match) => match[0])
    .filter((name) => !tagged.some((known) => known.includes(name)));
  const people = [...tagged, ...appositive];
  return people.length ? people : [...sentence.matchAll(ROLE)].map((match) => match[0]);
}

/** Candidate answer spans of `type` in an English sentence, in reading order. */
export function englishSpans(sentence: string, type: AnswerType): AnswerSpan[] {
  switch (type) {
    case 'amount':
    case 'date':
    case 'number':
      return regexSpans(sentence, type);
    case 'duration': {
      const spans = regexSpans(sentence, 'duration');
      // A deadline may be stated as a date ("until 30 April") rather than a length; a date alone is no length.
      if (spans.length > 0) return spans;
      return regexSpans(sentence, 'date')
        .filter((span) => DEADLINE.test(sentence.slice(0, span.start)))
        .map((span) => ({ ...span, type }));
    }
    case 'person':
      return spansOf(sentence, peopleIn(sentence), type);
    case 'place':
      return spansOf(sentence, namedThings(sentence).places, type);
    case 'organization': {
      const named = namedThings(sentence);
      // compromise tags many company names as people or leaves them untagged; any proper name may be one.
      const spans = spansOf(sentence, [...named.organizations, ...named.people], type);
      return spans.length > 0 ? spans : capitalisedRuns(sentence, type);
    }
    case 'list': {
      const match = ENUMERATION.exec(sentence);
      return match ? [{ text: match[0].trim(), start: match.index, end: match.index + match[0].length, type }] : [];
    }
    case 'definition': {
      const match = DEFINING.exec(sentence);
      if (!match) return [];
      const text = (match[1] as string).replace(/[.;]\s*$/, '');
      const start = sentence.lastIndexOf(text);
      return [{ text, start, end: start + text.length, type }];
    }
    case 'yes_no':
      return [...sentence.matchAll(POLARITY)].map((match) => ({
        text: match[0],
        start: match.index ?? 0,
        end: (match.index ?? 0) + match[0].length,
        type,
      }));
    case 'any':
      return [];
  }
}

/** Capitalised runs not at the sentence start: the floor for names compromise does not know. */
function capitalisedRuns(sentence: string, type: AnswerType): AnswerSpan[] {
  const out: AnswerSpan[] = [];
  for (const match of sentence.matchAll(/(?<!^)(?<=\s)\p{Lu}[\p{L}\p{N}&.-]*(?:\s+\p{Lu}[\p{L}\p{N}&.-]*)*/gu)) {
    out.push({ text: match[0], start: match.index ?? 0, end: (match.index ?? 0) + match[0].length, type });
  }
  return out;
}
