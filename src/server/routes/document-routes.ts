import { Hono } from 'hono';
import { NotFoundError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import { requireAdmin } from '../auth.ts';
import type { ServerEnv } from '../server-env.ts';

/**
 * Documents: everyone lists what their ACL lets them see (filtered in the store); only admins delete.
 * Doc ids are paths (`contracts/x.md`), so the id param takes the rest of the path.
 */
export function documentRoutes(evident: Evident): Hono<ServerEnv> {
  return new Hono<ServerEnv>()
    .get('/documents', async (c) => c.json({ documents: await evident.store.listDocuments(c.get('principal')) }))
    .delete('/documents/:docId{.+}', requireAdmin('delete documents'), async (c) => {
      const docId = c.req.param('docId');
      if (!(await evident.store.deleteDocument(docId))) throw new NotFoundError('document', docId);
      return c.json({ deleted: docId });
    });
}
