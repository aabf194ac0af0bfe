import { findQuote } from './find-quote.ts';

/** The chunk text with the cited quote marked; the whole text unmarked when the quote cannot be located. */
export function HighlightedText({ text, quote }: { text: string; quote: string }) {
  const range = findQuote(text, quote);
  if (!range) return <p className="chunk-text">{text}</p>;
  const [start, end] = range;
  return (
    <p className="chunk-text">
      {text.slice(0, start)}
      <mark>{text.slice(start, end)}</mark>
      {text.slice(end)}
    </p>
  );
}
