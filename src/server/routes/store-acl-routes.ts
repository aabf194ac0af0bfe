import { Hono } from 'hono';
import { z } from 'zod';
import { NotFoundError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import { MAX_ACL_ENTRIES } from '../../store/item-rules.ts';
import type { NamespaceAcl } from '../../store/store.ts';
import { readJson } from '../read-json.ts';
import type { ServerEnv } from '../server-env.ts';

const entries = z.array(z.string()).max(MAX_ACL_ENTRIES);

/** `PUT /v1/store/namespaces/{root}/acl`: who besides the owner reads and writes a shared namespace. */
export const namespaceAclSchema = z
  .object({
    read: entries.default([]).describe('Entries that may read: `user:<name>`, `group:<name>`.'),
    write: entries.default([]).describe('Entries that may write (and read).'),
  })
  .strict();

export const namespaceAclJson = z
  .object({
    namespace: z.array(z.string()).describe('The root label; the ACL covers every namespace under it.'),
    owner: z.string(),
    read: z.array(z.string()),
    write: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict();

const toAclJson = (acl: NamespaceAcl): z.infer<typeof namespaceAclJson> => ({
  namespace: [acl.root],
  owner: acl.owner,
  read: acl.read,
  write: acl.write,
  created_at: acl.createdAt,
  updated_at: acl.updatedAt,
});

/**
 * The ACL of a shared Store API namespace (any first label but `users`). Setting it on a new root creates the
 * namespace, owned by the caller; afterwards only its owner or an admin changes it. Someone who may not read the
 * namespace gets the 404 an absent one gets.
 */
export function storeAclRoutes(evident: Evident): Hono<ServerEnv> {
  const { store } = evident;
  return new Hono<ServerEnv>()
    .get('/store/namespaces/:root/acl', async (c) => {
      const root = c.req.param('root');
      const acl = await store.getNamespaceAcl(c.get('principal'), root);
      if (!acl)
        throw new NotFoundError('shared namespace', root, 'Put an item under it, or set its ACL, to create it.');
      return c.json(toAclJson(acl));
    })
    .put('/store/namespaces/:root/acl', async (c) => {
      const body = await readJson(c, namespaceAclSchema);
      const principal = c.get('principal');
      const acl = await store.setNamespaceAcl(principal, c.req.param('root'), body);
      await store.appendAudit({
        actor: principal.id,
        action: 'store.acl',
        surface: 'http',
        target: acl.root,
        outcome: acl.createdAt === acl.updatedAt ? 'created' : 'changed',
      });
      return c.json(toAclJson(acl));
    });
}
