import type { AnswerSpan } from '../../../text/language.ts';
import type { QuestionView } from './question-view.ts';

const BARE_YEAR = /^(?:1[5-9]|20)\d{2}年?$/u;
/** How far after a year the name it opens may run before the asked thing's own word. */
const NAME_REACH = 16;
/** Words that place or time what follows rather than name it: "2022年在乌镇举办" says when, then where. */
const NOT_IN_A_NAME = /[在于将从至到是的，。、；：！？,.;:!?\s]/u;

/**
 * Whether a bare year opens the name of the thing a Chinese question asks the time of ("2022年世界互联网大会乌镇峰会"
 * for "乌镇峰会举办时间"): the year names which event it is, not when it was held, and a question asking 时间 wants
 * the date the evidence states. The run from the year to the question's named thing holds no word that places or
 * times it ("2022年在乌镇举办" does say when).
 */
export function yearOfEventName(view: QuestionView, text: string, span: AnswerSpan): boolean {
  if (view.module.code === 'en' || !BARE_YEAR.test(span.text.trim())) return false;
  const after = text.slice(span.end, span.end + NAME_REACH);
  return view.entities.some((entity) => {
    const at = after.indexOf(entity);
    return at >= 0 && !NOT_IN_A_NAME.test(after.slice(0, at));
  });
}
