import { Hono } from 'hono';
import { auditPageJson, readAuditPage } from '../../audit/audit-entry-json.ts';
import { auditQueryOf } from '../../audit/audit-filters.ts';
import type { Evident } from '../../evident.ts';
import { requireAdmin } from '../auth.ts';
import type { ServerEnv } from '../server-env.ts';

/** The audit log, newest first, filtered and paged: admins only (it names who asked what, and what was withheld). */
export function auditRoutes(evident: Evident): Hono<ServerEnv> {
  return new Hono<ServerEnv>().get('/audit', requireAdmin('read the audit log'), async (c) => {
    const query = auditQueryOf(c.req.query());
    return c.json(auditPageJson(await readAuditPage(evident.store, query)));
  });
}
