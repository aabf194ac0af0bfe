import type { AnswerSpan } from '../../../text/language.ts';
import type { QuestionView } from './question-view.ts';

/** A question asking who won: the champion, the winner, who took the title. */
const ASKS_WINNER = /冠军|夺冠|获胜|胜者|赢家|得主|\b(?:winners?|won|wins|champions?|championship)\b/iu;
/**
 * Words a defeated side (or a word of its name) follows: "战胜了法国队", "战胜韩国选手安洗莹", "beat Morocco", "defeated
 * Dover Athletic".
 */
const BEATS_BEFORE =
  /(?:战胜|击败|打败|击溃|力克|淘汰|横扫|逆转|绝杀|完胜|险胜|零封)了?[^，。、,;；！!？?\s]{0,6}$|\b(?:defeated|defeating|defeats|defeat|beat|beating|beats|over)\s+(?:the\s+)?(?:\p{Lu}[\p{L}.'’-]*\s+){0,3}$/u;
/** Words a winner follows when the sentence names the loser first: "负于阿根廷队", "lost to Argentina". */
const LOST_TO_BEFORE = /(?:负于|输给|不敌|败给)了?\s*$|\b(?:lost\s+to|losing\s+to|fell\s+to)\s+(?:the\s+)?$/iu;
/** A loser's words after its name: "摩洛哥队负于…", "Morocco lost to …". */
const LOSES_AFTER = /^\s*队?(?:负于|输给|不敌|败给|惜败|lost\b|were\s+beaten\b)/iu;

/** How far back the words before a value are read. */
const REACH = 16;

/**
 * Whether a value is the side a match result says lost, when the question asks who won: the object of "战胜" or
 * "defeated", the subject of "负于" or "lost to". A sentence naming both sides states the winner beside the loser,
 * and nearness to "冠军" does not tell them apart.
 */
export function defeatedSide(view: QuestionView, text: string, span: AnswerSpan): boolean {
  if (!ASKS_WINNER.test(view.question)) return false;
  const before = text.slice(Math.max(0, span.start - REACH), span.start);
  if (LOST_TO_BEFORE.test(before)) return false;
  return BEATS_BEFORE.test(before) || LOSES_AFTER.test(text.slice(span.end));
}
