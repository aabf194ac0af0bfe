import type { AnswerType } from '../../../text/language.ts';
import { SHORT_HEAD } from './answer-head.ts';
import { freshValues, restates } from './cited-reading.ts';
import { asksTimeSpan, placesTime } from './measured-type.ts';
import type { QuestionView } from './question-view.ts';

/** The values an answer's head gives, of the kind asked, as the gate reads them against the question as asked. */
export function valuesOfHead(view: QuestionView, head: string, type: AnswerType, asked: string): { text: string }[] {
  const spans = [
    ...freshValues(view, head, type),
    ...(type === 'date' && asksTimeSpan(view)
      ? freshValues(view, head, 'duration').filter((span) => placesTime(view, head, span))
      : []),
  ];
  const bare = head.replace(/[.。!！]+$/u, '').trim();
  // Names only: a number, date or amount must be one the language module reads as such.
  const name = type === 'person' || type === 'organization' || type === 'place';
  if (!name || spans.length > 0 || !bare || restates(view, bare, type)) return spans;
  if (bare.length <= SHORT_HEAD && !/\s\S+\s/u.test(bare)) return [{ text: bare }];
  // "his then-girlfriend, Athina Andrelos": the person a short answer names capitalised, where the question does not
  // name it — the tagger knows few names.
  if (type !== 'person' || view.module.code !== 'en' || bare.length > LONG_NAMED_HEAD) return spans;
  const question = asked.toLowerCase();
  return [...bare.matchAll(NAME_RUN)]
    .map((match) => match[0].replace(OPENING_WORD, ''))
    .filter((run) => /^\p{Lu}/u.test(run) && !question.includes(run.toLowerCase()))
    .map((run) => ({ text: run }));
}

/** A short answer's longest length in which capitalised names are read as its values. */
const LONG_NAMED_HEAD = 60;
/** A capitalised first word that opens the answer rather than names anything. */
const OPENING_WORD =
  /^(?:The|A|An|His|Her|Their|Its|This|That|These|Those|My|Our|It|He|She|They|In|On|At|By|For|From)\b\s*/u;
const NAME_RUN = /\p{Lu}[\p{L}'’-]+(?:\s+(?:(?:of|de|van|von|da|la)\s+)?\p{Lu}[\p{L}'’-]+)*/gu;
