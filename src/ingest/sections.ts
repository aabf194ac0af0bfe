import type { Block } from '../domain/index.ts';

/** Blocks are joined with a blank line: paragraphs stay visible in the full text and in chunks. */
export const BLOCK_SEPARATOR = '\n\n';

/** A block placed in the document's full text. */
export interface PlacedBlock {
  block: Block;
  start: number;
  end: number;
  /** Enclosing headings, outermost first; a heading's own path ends with itself. */
  headingPath: string[];
}

export interface DocumentLayout {
  text: string;
  blocks: PlacedBlock[];
  /** The level of the document's outermost headings, or undefined when it has none. */
  topLevel: number | undefined;
}

/**
 * Lays blocks out into the full text (trimmed, blank blocks dropped) and resolves each block's heading path:
 * a heading closes every open heading of its level or deeper.
 */
export function layoutBlocks(blocks: readonly Block[]): DocumentLayout {
  const placed: PlacedBlock[] = [];
  const stack: { level: number; text: string }[] = [];
  let text = '';
  let topLevel: number | undefined;
  for (const block of blocks) {
    const content = block.kind === 'heading' ? block.text.replace(/\s+/g, ' ').trim() : block.text.trim();
    if (!content) continue;
    if (block.kind === 'heading') {
      while (stack.length > 0 && (stack.at(-1)?.level ?? 0) >= block.level) stack.pop();
      stack.push({ level: block.level, text: content });
      topLevel = topLevel === undefined ? block.level : Math.min(topLevel, block.level);
    }
    if (text) text += BLOCK_SEPARATOR;
    const start = text.length;
    text += content;
    placed.push({
      block: content === block.text ? block : { ...block, text: content },
      start,
      end: text.length,
      headingPath: stack.map((entry) => entry.text),
    });
  }
  return { text, blocks: placed, topLevel };
}
