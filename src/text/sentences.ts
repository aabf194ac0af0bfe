/** A sentence of a passage with the heading it sits under ('' when none). */
export interface HeadedSentence {
  text: string;
  heading: string;
}

/** Shorter pieces are headings, labels or table debris, not sentences that can state an answer (a CJK character says more than a letter). */
const MIN_SENTENCE = 12;
const MIN_CJK_SENTENCE = 6;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Sentences of a passage, each with the markdown heading it sits under (headings and list items split too).
 * Language-neutral: Chinese and Japanese full stops end a sentence without a following space.
 */
export function headedSentences(text: string): HeadedSentence[] {
  const out: HeadedSentence[] = [];
  let heading = '';
  for (const block of text.split(/\n{2,}|\n(?=[#*-]\s)|\n(?=#)/u)) {
    const trimmed = block.trim();
    // Chunk text keeps headings as short lines of their own, without the markdown `#`.
    if (!trimmed.includes('\n') && trimmed.length <= 80 && !/[.!?:;。！？]$/u.test(trimmed)) {
      heading = trimmed.replace(/^#+\s*/, '');
      continue;
    }
    const headingMatch = /^#{1,6}\s+(.+)$/m.exec(trimmed);
    if (headingMatch && trimmed.startsWith('#')) {
      heading = headingMatch[1] as string;
      if (!trimmed.includes('\n')) continue;
      pushSentences(trimmed.slice(trimmed.indexOf('\n') + 1), heading, out);
      continue;
    }
    pushSentences(trimmed, heading, out);
  }
  return out;
}

/**
 * A full stop, question or exclamation mark and a space end a sentence, unless the stop ends an abbreviation ("et al.
 * (2016)", "e.g. the", "Fig. 3") or a lower-case word goes on; a CJK stop ends one with no space.
 */
const SENTENCE_END =
  /(?<=[.!?])(?<!\b(?:al|e\.g|i\.e|vs|cf|Fig|Figs|Eq|Eqs|Sec|Ch|No|Nos|Dr|Mr|Mrs|Ms|Prof|St|approx|resp)\.)\s+(?!\p{Ll})|(?<=[。！？])/u;

/** A name's initial ("James K." before "Polk", "G." before "Stanley Hall"): no sentence ends there unless an opener follows. */
const MIDDLE_INITIAL = /(?:^|\s)\p{Lu}\.$/u;
const NAME_GOES_ON = /^\p{Lu}\p{Ll}+\b/u;
const OPENER =
  /^(?:The|This|That|These|Those|It|Its|In|On|At|A|An|He|She|They|We|I|His|Her|Their|There|After|Before|When|While|As|But|And|Or|For|By|From|With|If|Since|During|Then|However|Also|Each|All|Some|Most|One|Two|Three)\b/u;

function sentencePieces(block: string): string[] {
  const pieces: string[] = [];
  for (const piece of block.split(SENTENCE_END)) {
    const previous = pieces.at(-1);
    if (previous !== undefined && MIDDLE_INITIAL.test(previous) && NAME_GOES_ON.test(piece) && !OPENER.test(piece))
      pieces[pieces.length - 1] = `${previous} ${piece}`;
    else pieces.push(piece);
  }
  return pieces;
}

function pushSentences(block: string, heading: string, out: HeadedSentence[]): void {
  for (const sentence of sentencePieces(block)) {
    const clean = sentence.replace(/\s+/g, ' ').trim();
    if (clean.length >= (CJK.test(clean) ? MIN_CJK_SENTENCE : MIN_SENTENCE)) out.push({ text: clean, heading });
  }
}
