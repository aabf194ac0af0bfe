/**
 * A follow-up the offline rewrite made standalone carries the earlier turn as `(context: …)`. The earlier turn says
 * what the follow-up is about; the follow-up's own words say what it asks, and those are what must be stated.
 */
const CONTEXT = /\s*\(context:\s*(.+)\)\s*$/su;

export function askedPart(need: string): string {
  const match = CONTEXT.exec(need);
  const asked = match ? need.slice(0, match.index).trim() : need.trim();
  return asked || need.trim();
}
