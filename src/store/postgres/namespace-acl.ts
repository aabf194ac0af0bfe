import type { PoolClient } from 'pg';
import type { Principal } from '../../domain/principal.ts';
import { NamespaceForbiddenError } from '../../errors/index.ts';
import { itemAccessOf, type ItemAccess } from '../item-rules.ts';
import type { NamespaceAcl } from '../ports/memory-store.ts';

/**
 * The ACLs of shared Store API namespaces on Postgres: one `store_namespaces` row per root with its owner and two
 * entry arrays (writers read too). Read and changed in the caller's transaction.
 */

export interface NamespaceRow {
  owner: string;
  read_acl: string[];
  write_acl: string[];
  created_at: Date;
  updated_at: Date;
}

export const mayWrite = (access: ItemAccess, row: NamespaceRow) =>
  access.keys === undefined || row.owner === access.user || row.write_acl.some((entry) => access.keys?.includes(entry));

const mayRead = (access: ItemAccess, row: NamespaceRow) =>
  mayWrite(access, row) || row.read_acl.some((entry) => access.keys?.includes(entry));

const toAcl = (root: string, row: NamespaceRow): NamespaceAcl => ({
  root,
  owner: row.owner,
  read: [...row.read_acl].sort(),
  write: [...row.write_acl].sort(),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** Readers (owner, ACL entries, admins) see the ACL; anyone else gets what an absent namespace gets. */
export async function readAcl(c: PoolClient, principal: Principal, root: string): Promise<NamespaceAcl | undefined> {
  const row = (await c.query<NamespaceRow>('SELECT * FROM store_namespaces WHERE space = $1', [root])).rows[0];
  if (!row || !mayRead(itemAccessOf(principal), row)) return undefined;
  return toAcl(root, row);
}

export async function setAcl(
  c: PoolClient,
  principal: Principal,
  root: string,
  acl: { read: string[]; write: string[] },
): Promise<NamespaceAcl> {
  const access = itemAccessOf(principal);
  const now = new Date();
  await c.query(
    `INSERT INTO store_namespaces (space, owner, created_at, updated_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (space) DO NOTHING`,
    [root, principal.id, now],
  );
  const row = (await c.query<NamespaceRow>('SELECT * FROM store_namespaces WHERE space = $1 FOR UPDATE', [root]))
    .rows[0] as NamespaceRow;
  if (access.keys !== undefined && row.owner !== access.user)
    throw new NamespaceForbiddenError([root], principal.id, 'change the ACL of');
  // A writer reads too: an entry in both lists is one write entry.
  const read = acl.read.filter((entry) => !acl.write.includes(entry));
  const updated = (
    await c.query<NamespaceRow>(
      'UPDATE store_namespaces SET read_acl = $2, write_acl = $3, updated_at = $4 WHERE space = $1 RETURNING *',
      [root, read, acl.write, now],
    )
  ).rows[0] as NamespaceRow;
  return toAcl(root, updated);
}
