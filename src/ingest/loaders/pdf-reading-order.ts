/** A run of text as pdf.js places it (baseline start, advance width, size). */
interface PlacedItem {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
  /** Set sideways (an arXiv stamp in the margin): its width runs down the page, not across the gutter. */
  rotated?: boolean;
}

/**
 * A two-column page's items in reading order: between two lines that cross the gutter (a title, a wide table's
 * caption), the left column's items, then the right column's, then the crossing line. Within a column the content
 * stream's order is kept, so a line's superscripts stay after their base. A PDF that writes its lines across both
 * columns (left line, right line, left line …) would otherwise read as sentences spliced from both. A one-column
 * page is returned as it is.
 */
export function readingOrder<T extends PlacedItem>(items: readonly T[], gutter: number | undefined): readonly T[] {
  if (gutter === undefined) return items;
  const crosses = (item: T) =>
    !item.rotated && item.str.trim() !== '' && item.x < gutter && item.x + item.width > gutter;
  // The baselines of crossing lines, top first: each ends a band of the two columns above it.
  const wideLines: { y: number; size: number }[] = [];
  for (const item of items)
    if (crosses(item) && !wideLines.some((line) => Math.abs(line.y - item.y) <= line.size * 0.5))
      wideLines.push({ y: item.y, size: item.fontSize });
  wideLines.sort((a, b) => b.y - a.y);
  const bands = Array.from({ length: wideLines.length + 1 }, () => ({
    left: [] as T[],
    right: [] as T[],
    wide: [] as T[],
  }));
  for (const item of items) {
    const onWide = wideLines.findIndex((line) => Math.abs(line.y - item.y) <= line.size * 0.5);
    if (onWide >= 0) {
      bands[onWide]!.wide.push(item);
      continue;
    }
    // The band of the first crossing line below the item (the last band when none is).
    let band = wideLines.findIndex((line) => line.y < item.y);
    if (band < 0) band = wideLines.length;
    (item.x + item.width / 2 < gutter ? bands[band]!.left : bands[band]!.right).push(item);
  }
  return bands.flatMap((band) => [...band.left, ...band.right, ...band.wide]);
}
