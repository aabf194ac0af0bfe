import type { Block } from '../../domain/index.ts';
import { removeCjkSpaces } from './cjk-spacing.ts';

/** Tesseract's text of one page → paragraph blocks (blank lines part them), each carrying `page`. */
export function ocrTextBlocks(text: string, page: number): Block[] {
  const blocks: Block[] = [];
  for (const paragraph of text.replace(/\f/g, '\n').split(/\n\s*\n/)) {
    let joined = '';
    for (const raw of paragraph.split('\n')) {
      const line = raw.replace(/\s+/g, ' ').trim();
      if (!line) continue;
      // A word broken at the line's end (`recog-` + `nition`) is one word again.
      if (/\p{L}-$/u.test(joined) && /^\p{Ll}/u.test(line)) joined = joined.slice(0, -1) + line;
      else joined = joined ? `${joined} ${line}` : line;
    }
    const clean = removeCjkSpaces(joined);
    if (/[\p{L}\p{N}]/u.test(clean)) blocks.push({ kind: 'text', text: clean, page });
  }
  return blocks;
}
