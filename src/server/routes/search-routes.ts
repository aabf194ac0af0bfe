import { Hono } from 'hono';
import { z } from 'zod';
import { auditedSearch } from '../../audit/audited-search.ts';
import type { Evident } from '../../evident.ts';
import { scoreViewFor, searchResultJson } from '../../retrieval/search-result-json.ts';
import { readJson, requestLimits } from '../read-json.ts';
import { assertQueryWithin } from '../request-limits.ts';
import type { ServerEnv } from '../server-env.ts';

export const searchBody = z
  .object({
    query: z.string().trim().min(1, 'a non-empty query is required'),
    top_k: z.number().int().positive().max(200).optional(),
    channels: z
      .array(z.enum(['bm25', 'vector']))
      .min(1)
      .optional(),
  })
  .strict();

/** Hybrid search as the key's principal: the store filters by ACL inside the query, so results are only what they may see. */
export function searchRoutes(evident: Evident): Hono<ServerEnv> {
  return new Hono<ServerEnv>().post('/search', async (c) => {
    const body = await readJson(c, searchBody);
    assertQueryWithin(body.query, requestLimits(c));
    await evident.assertEmbedderMatches();
    const principal = c.get('principal');
    // Recorded in the audit log before any result leaves; an audit failure fails the search (the entry is never in the response).
    const trace = await auditedSearch(evident, {
      query: body.query,
      principal,
      surface: 'http',
      options: { ...(body.top_k ? { topK: body.top_k } : {}), ...(body.channels ? { channels: body.channels } : {}) },
    });
    // Raw channel scores carry statistics of documents a non-admin cannot read: they get ranks.
    const view = scoreViewFor(principal);
    return c.json({ query: body.query, results: trace.results.map((result) => searchResultJson(result, view)) });
  });
}
