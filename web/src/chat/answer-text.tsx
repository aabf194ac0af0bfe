import type { Citation } from '../api/wire-types.ts';

const MARKER = /\[(\d+)\]/g;

/** The answer's text with each citation marker `[n]` that names a citation turned into a button that opens it. */
export function AnswerText({
  text,
  citations,
  onOpen,
}: {
  text: string;
  citations: Citation[];
  onOpen: (index: number) => void;
}) {
  const parts: (string | number)[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKER)) {
    const index = Number(match[1]);
    if (index < 1 || index > citations.length) continue;
    parts.push(text.slice(last, match.index), index);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return (
    <p className="answer-text">
      {parts.map((part, i) =>
        typeof part === 'number' ? <CitationMarker key={i} index={part} onOpen={onOpen} /> : part,
      )}
    </p>
  );
}

export function CitationMarker({ index, onOpen }: { index: number; onOpen: (index: number) => void }) {
  return (
    <button type="button" className="citation-marker" onClick={() => onOpen(index)} aria-label={`Open source ${index}`}>
      [{index}]
    </button>
  );
}
