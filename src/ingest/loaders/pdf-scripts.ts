/** A run of text on a PDF page: where its baseline starts and its size. */
export interface PlacedRun {
  str: string;
  x: number;
  y: number;
  fontSize: number;
}

/** Smaller than this share of the text before it, a run is a superscript or subscript if its baseline moved. */
const SCRIPT_SIZE = 0.85;
/** The baseline moved by more than this share of the size before: raised or lowered, not the same line's jitter. */
const SCRIPT_SHIFT = 0.1;
/** A script this short (`19`, `k`, `i,j`, `-1`) is a symbol's index or exponent; a longer one is a word (`BASE`). */
const SHORT_SCRIPT = /^[\p{L}\p{N},+\-−*′']{1,3}$/u;

/**
 * How `run` joins the text before it when it is a superscript or subscript of `base` (the full-size run it follows):
 * `^` for an exponent (`10^19`, `R^H`), `_` for an index (`d_k`, `s_i,j`), or undefined when it is not one or reads
 * better as a word (`BERT BASE`, a footnote mark after a word).
 */
export function scriptMark(text: string, base: PlacedRun, run: PlacedRun): '^' | '_' | undefined {
  if (run.fontSize >= base.fontSize * SCRIPT_SIZE) return undefined;
  const script = run.str.trim();
  if (!SHORT_SCRIPT.test(script) || /\s$/.test(text)) return undefined;
  const shift = run.y - base.y;
  const before = text.at(-1) ?? '';
  if (shift > base.fontSize * SCRIPT_SHIFT) {
    // After a figure every raised figure is a power; after a word a raised number is a footnote mark, unless the
    // word is one letter (a symbol: `x^2`).
    if (/\p{N}/u.test(before) || !/^\p{N}+$/u.test(script)) return /[\p{L}\p{N})]/u.test(before) ? '^' : undefined;
    return /(^|[^\p{L}])\p{L}$/u.test(text) ? '^' : undefined;
  }
  if (shift < -base.fontSize * SCRIPT_SHIFT) return /[\p{L}\p{N})]/u.test(before) ? '_' : undefined;
  return undefined;
}

/** Typographic ligatures (ﬁ, ﬂ, ﬀ, ﬃ, ﬄ, ﬅ, ﬆ) a PDF may carry as one character: written out, so "ﬁnd" is found. */
export const mendLigatures = (text: string): string =>
  text.replace(/[\uFB00-\uFB06]/gu, (ligature) => ligature.normalize('NFKC'));
