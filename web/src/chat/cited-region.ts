import type { RowRegion } from '../api/wire-types.ts';
import { squeeze } from './quote-spans.ts';

/**
 * The table row a citation quotes, among the rows its chunk holds: the row whose text holds the quote (a model may quote
 * part of a row) or that the quote holds whole (a quote of a row with its caption line). Undefined when the quote is
 * prose: nothing is marked then but the quoted words.
 */
export function citedRegion(regions: readonly RowRegion[], quote: string): RowRegion | undefined {
  const needle = squeeze(quote.normalize('NFKC'));
  if (!needle) return undefined;
  let best: { region: RowRegion; length: number } | undefined;
  for (const region of regions) {
    const row = squeeze(region.text.normalize('NFKC'));
    if (!row || !(row.includes(needle) || needle.includes(row))) continue;
    const length = Math.min(row.length, needle.length);
    if (!best || length > best.length) best = { region, length };
  }
  return best?.region;
}
