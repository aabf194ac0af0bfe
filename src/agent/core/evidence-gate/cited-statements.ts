import { normalizeForQuote, type Citation } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import { headedSentences } from '../../../text/sentences.ts';
import type { CitedSentence } from './cited-reading.ts';
import type { QuestionView } from './question-view.ts';
import type { ValueTie } from './value-ties.ts';
import { chunkText, personNamer, type UnnamedBy } from './entity-ties.ts';

/** A citation of the sentence that states the value, quoted as the chunk writes it (symbols not written out). */
export function quoteOf(tie: ValueTie): Citation {
  const chunk = tie.sentence.chunk;
  const sentences = headedSentences(chunk.text).map((sentence) => sentence.text);
  const value = normalizeForQuote(tie.value);
  const quote =
    sentences.find((sentence) => normalizeForQuote(sentence) === normalizeForQuote(tie.sentence.text)) ??
    sentences.find((sentence) => normalizeForQuote(sentence).includes(value)) ??
    chunk.text;
  return {
    chunk_id: chunk.chunk_id,
    doc_id: chunk.doc_id,
    source: chunk.source,
    ...(chunk.page ? { page: chunk.page } : {}),
    quote,
  };
}

/** Whether a number the head gives is written in the cited chunks (a value read from rows, not computed). */
export function statedIn(head: string, cited: readonly Evidence[]): boolean {
  const numbers = head.match(/\d[\d,.]*/gu) ?? [];
  const text = cited.map((chunk) => chunk.text).join('\n');
  return numbers.some((number) => text.includes(number));
}

/** Why no cited sentence ties a value to the question, said as what the evidence lacks. */
export function whyUntied(
  view: QuestionView,
  ties: readonly ValueTie[],
  sentences: readonly CitedSentence[],
  unnamed: UnnamedBy,
): string {
  const texts = [...new Set(sentences.map((s) => chunkText(s.chunk)))];
  const namedIn = personNamer(view, texts.join('\n'));
  const absent = view.entities.filter((entity) => !texts.some((text) => namedIn(text, entity)));
  if (absent.length) return `the cited evidence does not name ${absent.join(', ')}`;
  const ids = view.identifiers;
  if (ids.length && ties.every((tie) => unnamed(tie).length > 0))
    return `the passage that states a value is not about ${ids.join(', ')}`;
  return 'the cited evidence does not state it';
}
