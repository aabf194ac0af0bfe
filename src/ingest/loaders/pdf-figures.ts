import type { Block, FigureCaption } from '../../domain/index.ts';

/**
 * `Figure 3:` / `Fig. 3.` / `Figure A.1:` opening a paragraph: a caption. A sentence that mentions a figure
 * (`Figure 3 shows …`) has no colon or full stop right after the number, so it is not one.
 */
const CAPTION = /^(Figure|Fig\.)\s*((?:\d{1,3}|[A-Z])(?:\.\d{1,3})?)\s*[:.](?:\s|$)/i;
/** A caption is kept to this many characters: enough to say what the figure is, never a page of text. */
const MAX_CAPTION_CHARS = 600;

/**
 * The captioned figures of a PDF's blocks, the first caption of each label only (a figure is captioned once; a second
 * paragraph opening with its label is text about it).
 */
export function figureCaptions(blocks: readonly Block[]): FigureCaption[] {
  const figures: FigureCaption[] = [];
  const seen = new Set<string>();
  for (const block of blocks) {
    if (block.kind !== 'text' || block.page === undefined) continue;
    const match = CAPTION.exec(block.text);
    if (!match?.[2]) continue;
    const label = `Figure ${match[2]}`;
    if (seen.has(label)) continue;
    seen.add(label);
    figures.push({ page: block.page, label, caption: block.text.slice(0, MAX_CAPTION_CHARS).trim() });
  }
  return figures;
}
