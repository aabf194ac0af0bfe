/** `page 3 has` / `pages 1 and 3 have` / `pages 1, 2, 3, 4, 5 and 7 more have`: which pages a message is about. */
export function pagesHave(pages: readonly number[]): string {
  if (pages.length === 1) return `page ${pages[0]} has`;
  const shown = pages.slice(0, 5);
  const more = pages.length - shown.length;
  if (more > 0) return `pages ${shown.join(', ')} and ${more} more have`;
  return `pages ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)} have`;
}
