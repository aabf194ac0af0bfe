import type { Block, LoadedDocument } from '../../domain/index.ts';
import { decodeText, normalizeNewlines } from './decode-text.ts';
import { detectHeadingLine } from './heading-lines.ts';
import type { Loader } from './loader.ts';

const LIST_LINE = /^\s*(\d{1,3}(\.\d{1,3})*[.)]?|[-*•])\s/;

/** Plain text: paragraphs are separated by blank lines; a one-line paragraph may be a heading. */
export const textLoader: Loader = {
  type: 'text',
  async load(bytes: Buffer, path: string): Promise<LoadedDocument> {
    const text = normalizeNewlines(decodeText(bytes, path));
    const blocks: Block[] = [];
    for (const paragraph of text.split(/\n[ \t]*\n/)) {
      const lines = paragraph
        .split('\n')
        .map((line) => line.trimEnd())
        .filter((line) => line.trim() !== '');
      if (lines.length === 0) continue;
      // A heading may sit directly above its paragraph; but a first line followed by more numbered
      // or bulleted lines is the start of a list, not a heading.
      const first = lines[0] ?? '';
      const second = lines[1];
      const heading = second === undefined || !LIST_LINE.test(second) ? detectHeadingLine(first) : undefined;
      if (heading) blocks.push({ kind: 'heading', level: heading.level, text: heading.text });
      const body = heading ? lines.slice(1) : lines;
      if (body.length > 0) blocks.push({ kind: 'text', text: body.join('\n') });
    }
    return { blocks };
  },
};
