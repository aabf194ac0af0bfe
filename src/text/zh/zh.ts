/**
 * The Chinese language module of the offline reader: sentences, question focus, named things and typed answer
 * spans for Chinese text, on jieba's segmentation and tags (segmenter.ts). Word terms come from the keyword
 * analyzer, so a focus matches passages the way the index reads them.
 */
import type { AnswerSpan, AnswerType, LanguageModule } from '../language.ts';
import { zhEntities, zhFocus } from './focus.ts';
import { listSpans } from './lists.ts';
import { organizationCandidates, personCandidates, placeCandidates, toSpans } from './names.ts';
import { zhSentences } from './sentences.ts';
import { amountSpans, dateSpans, durationSpans, numberSpans } from './values.ts';

/** The predicate of a defining sentence (X是一种…, X指…), the part a 什么是 question asks for. */
function definitionSpans(sentence: string): AnswerSpan[] {
  const match =
    /(?:是|指|即|为|系)(?:一(?:个|家|种|部|款|项|支|位|座|类|场)|[^，。；]{0,2}(?:的))?[^。；！？]{2,}/u.exec(sentence);
  if (!match) return [];
  const text = match[0].replace(/^(?:是|指|即|为|系)/u, '').trim();
  const start = (match.index ?? 0) + match[0].indexOf(text);
  return text.length >= 2 ? [{ text, start, end: start + text.length, type: 'definition' }] : [];
}

function zhSpans(sentence: string, type: AnswerType): AnswerSpan[] {
  switch (type) {
    case 'date':
      return dateSpans(sentence);
    case 'amount':
      return amountSpans(sentence);
    case 'number':
      return numberSpans(sentence);
    case 'duration':
      return durationSpans(sentence);
    case 'person': {
      // 谁 is answered by a team as often as by a person (冠军是谁): a team's name (…队) stands for who.
      const teams = organizationCandidates(sentence).filter((org) => org.score >= 1 && /队$/u.test(org.text));
      return toSpans([...personCandidates(sentence), ...teams], 'person');
    }
    case 'place': {
      // Where the sentence names a known place, an unknown noun after 在 (在球场, 在本季度) is the venue, not the place.
      const places = placeCandidates(sentence);
      const known = places.filter((place) => place.score >= 1);
      return toSpans(known.length > 0 ? known : places, 'place');
    }
    case 'organization':
      return toSpans(organizationCandidates(sentence), 'organization');
    case 'list':
      return listSpans(sentence);
    case 'definition':
      return definitionSpans(sentence);
    case 'yes_no':
    case 'any':
      return [];
  }
}

export const zh: LanguageModule = {
  code: 'zh',
  sentences: zhSentences,
  focus: zhFocus,
  entities: zhEntities,
  spans: zhSpans,
};
