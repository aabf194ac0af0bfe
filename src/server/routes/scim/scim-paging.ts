import type { Context } from 'hono';
import { scimInvalid } from './scim-errors.ts';
import { SCIM_LIST } from './scim-schemas.ts';

/** RFC 7644 §3.4.2.4 paging: `startIndex` (1-based) and `count`, bounded by the page size the server allows. */
export function pagingOf(c: Context, maxPageSize: number): { startIndex: number; count: number } {
  const number = (name: string, fallback: number): number => {
    const text = c.req.query(name);
    if (text === undefined || text === '') return fallback;
    if (!/^-?\d{1,9}$/.test(text))
      throw scimInvalid('invalidValue', `${name} is an integer.`, `Send ${name} as a whole number, e.g. ${name}=1.`);
    return Number(text);
  };
  // Values below 1 (startIndex) or 0 (count) are read as those, as the RFC says.
  const startIndex = Math.max(1, number('startIndex', 1));
  const count = Math.min(maxPageSize, Math.max(0, number('count', maxPageSize)));
  return { startIndex, count };
}

/** One page of a list as a ListResponse. */
export function listResponse<T>(all: readonly T[], paging: { startIndex: number; count: number }) {
  const page = all.slice(paging.startIndex - 1, paging.startIndex - 1 + paging.count);
  return {
    schemas: [SCIM_LIST],
    totalResults: all.length,
    startIndex: paging.startIndex,
    itemsPerPage: page.length,
    Resources: page,
  };
}

/** Top-level attributes a client asked to leave out (`excludedAttributes=members`), lowercased. */
export const excludedOf = (c: Context): Set<string> =>
  new Set(
    (c.req.query('excludedAttributes') ?? '')
      .slice(0, 1000)
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );

/**
 * A resource as `attributes`/`excludedAttributes` ask (top-level names; `id`, `schemas` and `meta` always stay, as
 * RFC 7643 §7 returns them "always").
 */
export function projected<T extends object>(resource: T, c: Context): T {
  const wanted = (c.req.query('attributes') ?? '')
    .slice(0, 1000)
    .split(',')
    .map(
      (name) =>
        name
          .trim()
          .replace(/^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i, '')
          .split('.')[0]
          ?.toLowerCase() ?? '',
    )
    .filter(Boolean);
  const excluded = excludedOf(c);
  const always = new Set(['id', 'schemas', 'meta']);
  const kept = Object.entries(resource).filter(([key]) => {
    const name = key.toLowerCase();
    if (always.has(name)) return true;
    if (wanted.length > 0) return wanted.includes(name);
    return !excluded.has(name);
  });
  return Object.fromEntries(kept) as T;
}
