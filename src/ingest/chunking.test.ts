import { describe, expect, it } from 'vitest';
import type { Block, Chunk } from '../domain/index.ts';
import { chunkDocument } from './chunking.ts';
import { seededRandom as random } from '../testing/seeded-random.ts';

const TOKENS = [
  'CT-2024-0193',
  '/v2/orders/{id}',
  '0x7a25f3c9e1b44d20',
  '1,250.50',
  '$500K',
  'INV-88231',
  'user_id=42',
  'e.g.',
  'v1.2.3',
];
const WORDS = [
  'the',
  'contract',
  'renews',
  'annually',
  'unless',
  'terminated',
  'notice',
  'party',
  'order',
  'shall',
  'Acme',
  'Beta',
];
const CJK_SENTENCES = [
  '合同自动续期。',
  '除非任何一方提前通知！',
  '订单CT-2024-0193已发货；',
  '金额为1,250.50美元？',
  '请联系客服',
];

function sentence(rand: () => number): string {
  const words: string[] = [];
  const count = 3 + Math.floor(rand() * 18);
  for (let i = 0; i < count; i += 1) {
    const pool = rand() < 0.2 ? TOKENS : WORDS;
    words.push(pool[Math.floor(rand() * pool.length)] ?? 'x');
  }
  const first = words[0] ?? 'X';
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(' ')}.`;
}

function randomBlocks(rand: () => number): Block[] {
  const blocks: Block[] = [];
  const count = 1 + Math.floor(rand() * 25);
  for (let i = 0; i < count; i += 1) {
    const roll = rand();
    const page = 1 + Math.floor(i / 5);
    if (roll < 0.15) {
      blocks.push({
        kind: 'heading',
        level: 1 + Math.floor(rand() * 3),
        text: `Section ${i} ${WORDS[i % WORDS.length]}`,
        page,
      });
    } else if (roll < 0.3) {
      const cells = Array.from(
        { length: 1 + Math.floor(rand() * 30) },
        (_, k) => `col${k}: ${TOKENS[k % TOKENS.length]}`,
      );
      blocks.push({ kind: 'row', text: cells.join(' | '), page });
    } else if (roll < 0.4) {
      const parts = Array.from(
        { length: 1 + Math.floor(rand() * 40) },
        () => CJK_SENTENCES[Math.floor(rand() * CJK_SENTENCES.length)],
      );
      blocks.push({ kind: 'text', text: parts.join(''), page });
    } else if (roll < 0.43) {
      // One token longer than any chunk: unsplittable.
      blocks.push({ kind: 'text', text: `blob ${'ab12'.repeat(150)} end.`, page });
    } else {
      const sentences = Array.from({ length: 1 + Math.floor(rand() * 20) }, () => sentence(rand));
      blocks.push({ kind: 'text', text: sentences.join(rand() < 0.2 ? '\n' : ' '), page });
    }
  }
  return blocks;
}

/** The maximal runs of characters a chunk boundary must never fall inside. */
function unsplittableSpans(text: string, blocks: Block[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const match of text.matchAll(/[\x21-\x7e]+/g)) spans.push([match.index, match.index + match[0].length]);
  let from = 0;
  for (const block of blocks) {
    const at = text.indexOf(block.text.trim(), from);
    if (block.kind === 'row') spans.push([at, at + block.text.trim().length]);
    from = at + block.text.trim().length;
  }
  return spans;
}

function assertChunkInvariants(blocks: Block[], size: number, overlap: number, seed: number): void {
  const result = chunkDocument('doc', blocks, { size, overlap });
  const { text, chunks } = result;
  const spans = unsplittableSpans(text, blocks);
  // For each position: the end of the unsplittable span it lies strictly inside, if any.
  const insideSpan = new Int32Array(text.length + 1).fill(-1);
  for (const [start, end] of spans)
    for (let p = start + 1; p < end; p += 1) insideSpan[p] = Math.max(insideSpan[p] ?? -1, end);
  const covered = new Uint8Array(text.length);
  const problems: string[] = [];
  chunks.forEach((chunk, index) => {
    const where = `seed ${seed} chunk ${index}`;
    if (chunk.id !== `doc#${index}` || chunk.ordinal !== index) problems.push(`${where}: id ${chunk.id}`);
    if (chunk.text !== text.slice(chunk.startOffset, chunk.endOffset)) problems.push(`${where}: text is not the slice`);
    if (chunk.text.trim() !== chunk.text || chunk.text.length === 0) problems.push(`${where}: not trimmed or empty`);
    covered.fill(1, chunk.startOffset, chunk.endOffset);
    for (const boundary of [chunk.startOffset, chunk.endOffset]) {
      if ((insideSpan[boundary] ?? -1) >= 0) problems.push(`${where}: boundary ${boundary} cuts a token or row`);
    }
    if (chunk.text.length > size) {
      // Oversized only when an unsplittable unit (a long row or token) is in it.
      const hasLongUnit = spans.some(
        ([start, end]) => end - start > size * 0.5 && start < chunk.endOffset && end > chunk.startOffset,
      );
      if (!hasLongUnit) problems.push(`${where}: oversized (${chunk.text.length} > ${size})`);
    }
    const next = chunks[index + 1];
    if (next) {
      if (next.startOffset <= chunk.startOffset || next.endOffset <= chunk.endOffset)
        problems.push(`${where}: no progress`);
      if (chunk.endOffset - next.startOffset > overlap) problems.push(`${where}: overlap above ${overlap}`);
    }
  });
  for (let i = 0; i < text.length; i += 1) {
    if (covered[i] !== 1 && !/\s/.test(text[i] ?? '')) {
      problems.push(`seed ${seed}: character ${i} not covered`);
      break;
    }
  }
  for (const chapter of result.chapters) {
    for (const chunk of chunks) {
      if (
        chunk.startOffset >= chapter.startOffset &&
        chunk.startOffset < chapter.endOffset &&
        chunk.endOffset > chapter.endOffset
      ) {
        problems.push(`seed ${seed}: chunk ${chunk.ordinal} crosses the end of chapter ${chapter.ordinal}`);
      }
    }
  }
  expect(problems).toEqual([]);
}

describe('chunkDocument properties', () => {
  it('covers the text exactly, never cuts tokens, CJK-safe, rows or chapters, for 300 random documents', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const rand = random(seed);
      const size = 200 + Math.floor(rand() * 1000);
      const overlap = Math.floor(rand() * (size / 2 - 1));
      assertChunkInvariants(randomBlocks(rand), size, overlap, seed);
    }
  });
});

describe('chunkDocument', () => {
  const para = (n: number, word = 'alpha'): string =>
    Array.from({ length: n }, (_, i) => `Sentence ${i} says ${word} beta gamma delta.`).join(' ');

  it('joins blocks with a blank line and indexes chunks into that text', () => {
    const result = chunkDocument(
      'd1',
      [
        { kind: 'heading', level: 1, text: 'Intro' },
        { kind: 'text', text: 'Hello world.' },
      ],
      { size: 1200, overlap: 150 },
    );
    expect(result.text).toBe('Intro\n\nHello world.');
    expect(result.chunks).toHaveLength(1);
    expect(result.chunks[0]).toMatchObject({
      id: 'd1#0',
      text: 'Intro\n\nHello world.',
      headingPath: ['Intro'],
      startOffset: 0,
      endOffset: 19,
    });
  });

  it('returns no chunks and no chapters for an empty document', () => {
    expect(chunkDocument('d', [], { size: 500, overlap: 50 })).toEqual({ text: '', chunks: [], chapters: [] });
    expect(chunkDocument('d', [{ kind: 'text', text: '   ' }], { size: 500, overlap: 50 }).chunks).toEqual([]);
  });

  it('gives chunks the heading path and page where they start', () => {
    const { chunks } = chunkDocument(
      'd',
      [
        { kind: 'heading', level: 1, text: 'Contracts', page: 1 },
        { kind: 'text', text: para(3), page: 1 },
        { kind: 'heading', level: 2, text: 'Termination', page: 2 },
        { kind: 'text', text: para(30, 'terminate'), page: 2 },
        { kind: 'heading', level: 2, text: 'Renewal', page: 3 },
        { kind: 'text', text: para(2, 'renew'), page: 3 },
      ],
      { size: 400, overlap: 0 },
    );
    const termination = chunks.filter((chunk) => chunk.text.includes('terminate'));
    expect(termination.length).toBeGreaterThan(2);
    for (const chunk of termination) {
      expect(chunk.headingPath).toEqual(
        chunk.text.startsWith('Contracts') ? ['Contracts'] : ['Contracts', 'Termination'],
      );
    }
    const renewal = chunks.find((chunk) => chunk.text.startsWith('Renewal'));
    expect(renewal).toMatchObject({ headingPath: ['Contracts', 'Renewal'], page: 3 });
    expect(chunks[0]?.page).toBe(1);
  });

  it('puts a heading at the start of the chunk that follows it, never alone at the end of a chunk', () => {
    const { chunks } = chunkDocument(
      'd',
      [
        { kind: 'text', text: para(9) },
        { kind: 'heading', level: 2, text: 'Payment terms' },
        { kind: 'text', text: para(9, 'pay') },
      ],
      { size: 500, overlap: 100 },
    );
    const withHeading = chunks.filter((chunk) => chunk.text.includes('Payment terms'));
    expect(withHeading.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(chunk.text.endsWith('Payment terms')).toBe(false);
    expect(withHeading.some((chunk) => chunk.text.startsWith('Payment terms\n\nSentence 0 says pay'))).toBe(true);
  });

  it('does not carry overlap across a chapter boundary and makes one chapter per top-level heading', () => {
    const { chunks, chapters, text } = chunkDocument(
      'd',
      [
        { kind: 'text', text: 'Preface text.', page: 1 },
        { kind: 'heading', level: 2, text: 'One', page: 1 },
        { kind: 'text', text: para(12), page: 1 },
        { kind: 'heading', level: 3, text: 'One point one', page: 2 },
        { kind: 'text', text: para(2), page: 2 },
        { kind: 'heading', level: 2, text: 'Two', page: 3 },
        { kind: 'text', text: para(12, 'second'), page: 3 },
      ],
      { size: 300, overlap: 120 },
    );
    expect(chapters.map((chapter) => [chapter.ordinal, chapter.title, chapter.headingPath, chapter.page])).toEqual([
      [0, '', [], 1],
      [1, 'One', ['One'], 1],
      [2, 'Two', ['Two'], 3],
    ]);
    expect(text.slice(chapters[1]!.startOffset, chapters[1]!.endOffset)).toMatch(
      /^One\n\n[\s\S]*says alpha beta gamma delta\.$/,
    );
    expect(chapters[1]!.endOffset).toBeLessThan(chapters[2]!.startOffset);
    const second = chunks.filter((chunk) => chunk.startOffset >= chapters[2]!.startOffset);
    expect(second[0]?.text.startsWith('Two')).toBe(true);
    for (const chunk of chunks) {
      const inFirst = chunk.startOffset < chapters[2]!.startOffset;
      if (inFirst) expect(chunk.endOffset).toBeLessThanOrEqual(chapters[1]!.endOffset);
    }
  });

  it('treats a document without headings as one untitled chapter', () => {
    const { chapters, text } = chunkDocument(
      'd',
      [
        { kind: 'text', text: 'Just text.' },
        { kind: 'text', text: 'More.' },
      ],
      { size: 300, overlap: 0 },
    );
    expect(chapters).toEqual([{ ordinal: 0, title: '', headingPath: [], startOffset: 0, endOffset: text.length }]);
  });

  it('carries whole trailing sentences as overlap', () => {
    const sentences = Array.from({ length: 40 }, (_, i) => `Fact number ${i} is recorded here.`);
    const { chunks } = chunkDocument('d', [{ kind: 'text', text: sentences.join(' ') }], { size: 300, overlap: 80 });
    expect(chunks.length).toBeGreaterThan(3);
    for (let i = 1; i < chunks.length; i += 1) {
      const previous = chunks[i - 1]!;
      const current = chunks[i]!;
      expect(current.text).toMatch(/^Fact number \d+ is recorded here\./);
      expect(previous.text).toMatch(/here\.$/);
      expect(current.startOffset).toBeLessThan(previous.endOffset); // there is an overlap
      expect(previous.endOffset - current.startOffset).toBeLessThanOrEqual(80);
    }
  });

  it('keeps a table row whole, even when it is longer than the chunk size', () => {
    const longRow = Array.from({ length: 40 }, (_, i) => `field_${i}: value ${i}`).join(' | ');
    const rows: Block[] = [
      { kind: 'heading', level: 1, text: 'orders — columns: order_id, customer' },
      ...Array.from(
        { length: 30 },
        (_, i): Block => ({
          kind: 'row',
          text: `order_id: A-${1000 + i} | customer: Acme ${i} | order_total_usd: 1250.50`,
          table: 'orders',
        }),
      ),
      { kind: 'row', text: longRow, table: 'orders' },
    ];
    const { chunks } = chunkDocument('d', rows, { size: 300, overlap: 100 });
    const longChunk = chunks.find((chunk) => chunk.text.includes('field_0'));
    expect(longChunk?.text).toBe(longRow);
    for (const chunk of chunks) {
      for (const line of chunk.text.split('\n\n')) {
        if (line.startsWith('order_id'))
          expect(line).toMatch(/^order_id: A-\d+ \| customer: Acme \d+ \| order_total_usd: 1250\.50$/);
      }
    }
    // Rows are not repeated as overlap.
    const mentions = chunks.flatMap((chunk: Chunk) => chunk.text.match(/A-1005 /g) ?? []);
    expect(mentions).toHaveLength(1);
  });

  it('breaks Chinese text after sentence punctuation and never inside an ASCII token within it', () => {
    const text = Array.from({ length: 60 }, (_, i) => `第${i}条：订单CT-2024-0193的金额为1,250.50美元。`).join('');
    const { chunks } = chunkDocument('zh', [{ kind: 'text', text }], { size: 200, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text.endsWith('。')).toBe(true);
    for (const chunk of chunks)
      expect(chunk.text.match(/CT-\d+-\d+/g)?.every((id) => id === 'CT-2024-0193')).toBe(true);
  });

  it('falls back to a character boundary in Chinese text without punctuation, outside ASCII tokens', () => {
    const text = '数据'.repeat(150) + 'CT-2024-0193' + '数据'.repeat(150);
    const { chunks } = chunkDocument('zh', [{ kind: 'text', text }], { size: 305, overlap: 0 });
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(text);
    expect(chunks.some((chunk) => chunk.text.includes('CT-2024-0193'))).toBe(true);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(305);
  });

  it('never splits identifiers, paths, hashes or amounts at whitespace-free spots', () => {
    const tokens = ['CT-2024-0193', '/v2/orders/{id}', '0x7a25f3c9e1b44d20aa', '1,250.50', '$500K'];
    const text = Array.from({ length: 200 }, (_, i) => tokens[i % tokens.length]).join(' ');
    const { chunks } = chunkDocument('d', [{ kind: 'text', text }], { size: 97, overlap: 30 });
    for (const chunk of chunks) for (const word of chunk.text.split(/\s+/)) expect(tokens).toContain(word);
  });

  it('does not break a surrogate pair', () => {
    const text = '😀'.repeat(400);
    const { chunks } = chunkDocument('d', [{ kind: 'text', text: `数${text}数` }], { size: 200, overlap: 0 });
    for (const chunk of chunks) expect(chunk.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
  });
});
