/**
 * The index terms a chunk's analysed form holds (text/analysed-form.ts), read back for the keyword postings' writer:
 * the form's dictionary is the chunk's distinct terms in order of first occurrence and its term sequence counts them,
 * so a writer that has the form need not split the keyword text into terms again.
 */
import { ANALYSED_FORM_VERSION, encodeAnalysedForm, termIndexAt } from './analysed-form.ts';

/** A chunk's index terms as a form holds them. */
export interface FormTerms {
  /** The distinct terms, first occurrence first (the keyword text's non-empty space-separated words). */
  terms: string[];
  /** Occurrences of each of `terms`, parallel to it. */
  counts: Int32Array;
  /** The number of terms in the sequence (non-empty words of the keyword text). */
  length: number;
}

const DECODER = new TextDecoder();

/** The index terms of `form`, or undefined when it is not a form of this version. Throws on a truncated form. */
export function formTerms(form: Uint8Array): FormTerms | undefined {
  if (form.length === 0 || form[0] !== ANALYSED_FORM_VERSION) return undefined;
  let at = 1;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= form.length) throw new RangeError('analysed form: truncated');
      const byte = form[at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  varint();
  const hashes = varint();
  at += hashes * 4;
  const distinct = varint();
  const dictionaryLength = varint();
  if (at + dictionaryLength > form.length) throw new RangeError('analysed form: truncated');
  const terms = distinct === 0 ? [] : DECODER.decode(form.subarray(at, at + dictionaryLength)).split(' ');
  if (terms.length !== distinct) throw new RangeError('analysed form: dictionary and term count differ');
  at += dictionaryLength;
  const length = varint();
  if (at >= form.length) throw new RangeError('analysed form: truncated');
  const width = form[at++] as number;
  if (at + length * width > form.length) throw new RangeError('analysed form: truncated');
  const counts = new Int32Array(distinct);
  for (let position = 0; position < length; position++, at += width) {
    const index = termIndexAt(form, at, width);
    if (index >= distinct) throw new RangeError('analysed form: a term index past the dictionary');
    counts[index] = (counts[index] as number) + 1;
  }
  return { terms, counts, length };
}

/**
 * The analysed forms of a document's chunks (`encodeAnalysedForm(texts[i], keywordText[i])`), as views into ONE
 * buffer: a worker thread posts a document's forms as one transferable buffer instead of one per chunk.
 */
export function packedAnalysedForms(texts: readonly string[], keywordText: readonly string[]): Uint8Array[] {
  const forms = texts.map((text, i) => encodeAnalysedForm(text, keywordText[i] as string));
  let total = 0;
  for (const form of forms) total += form.length;
  const buffer = new Uint8Array(total);
  let at = 0;
  return forms.map((form) => {
    buffer.set(form, at);
    const view = buffer.subarray(at, at + form.length);
    at += form.length;
    return view;
  });
}
