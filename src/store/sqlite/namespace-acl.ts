import type Database from 'better-sqlite3';
import type { Principal } from '../../domain/principal.ts';
import { NamespaceForbiddenError } from '../../errors/index.ts';
import { itemAccessOf, type ItemAccess } from '../item-rules.ts';
import type { NamespaceAcl } from '../ports/memory-store.ts';

/**
 * The ACLs of shared Store API namespaces on SQLite: the owner in `store_namespaces`, one `store_namespace_acl` row
 * per entry (`can_write` for writers, who read too). Read and changed in the caller's transaction.
 */

type Stmt = (sql: string) => Database.Statement;

/** Whether the principal may write the shared namespace `space` (owned by `owner`): owner, admin, or a write entry. */
export function mayWriteShared(stmt: Stmt, access: ItemAccess, space: string, owner: string): boolean {
  if (access.keys === undefined || owner === access.user) return true;
  return (
    stmt(
      `SELECT 1 FROM store_namespace_acl WHERE space = ? AND can_write = 1 AND entry IN (SELECT value FROM json_each(?))`,
    ).get(space, JSON.stringify(access.keys)) !== undefined
  );
}

interface AclRow {
  owner: string;
  created_at: string;
  updated_at: string;
}

function aclOf(stmt: Stmt, root: string, row: AclRow): NamespaceAcl {
  const entries = stmt('SELECT entry, can_write FROM store_namespace_acl WHERE space = ? ORDER BY entry').all(root) as {
    entry: string;
    can_write: number;
  }[];
  return {
    root,
    owner: row.owner,
    read: entries.filter((entry) => entry.can_write === 0).map((entry) => entry.entry),
    write: entries.filter((entry) => entry.can_write === 1).map((entry) => entry.entry),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Readers (owner, ACL entries, admins) see the ACL; anyone else gets what an absent namespace gets. */
export function readAcl(stmt: Stmt, principal: Principal, root: string): NamespaceAcl | undefined {
  const access = itemAccessOf(principal);
  const row = stmt('SELECT owner, created_at, updated_at FROM store_namespaces WHERE space = ?').get(root) as
    | AclRow
    | undefined;
  if (!row) return undefined;
  const readable =
    access.keys === undefined ||
    row.owner === access.user ||
    stmt(`SELECT 1 FROM store_namespace_acl WHERE space = ? AND entry IN (SELECT value FROM json_each(?))`).get(
      root,
      JSON.stringify(access.keys),
    ) !== undefined;
  return readable ? aclOf(stmt, root, row) : undefined;
}

export function setAcl(
  stmt: Stmt,
  principal: Principal,
  root: string,
  acl: { read: string[]; write: string[] },
): NamespaceAcl {
  const access = itemAccessOf(principal);
  const now = new Date().toISOString();
  const row = stmt('SELECT owner FROM store_namespaces WHERE space = ?').get(root) as { owner: string } | undefined;
  if (!row) {
    stmt('INSERT INTO store_namespaces (space, owner, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
      root,
      principal.id,
      now,
      now,
    );
  } else if (access.keys !== undefined && row.owner !== access.user) {
    throw new NamespaceForbiddenError([root], principal.id, 'change the ACL of');
  } else {
    stmt('UPDATE store_namespaces SET updated_at = ? WHERE space = ?').run(now, root);
  }
  stmt('DELETE FROM store_namespace_acl WHERE space = ?').run(root);
  const insert = stmt('INSERT INTO store_namespace_acl (space, entry, can_write) VALUES (?, ?, ?)');
  // A writer reads too: an entry in both lists is one write entry.
  for (const entry of acl.write) insert.run(root, entry, 1);
  for (const entry of acl.read) if (!acl.write.includes(entry)) insert.run(root, entry, 0);
  return aclOf(
    stmt,
    root,
    stmt('SELECT owner, created_at, updated_at FROM store_namespaces WHERE space = ?').get(root) as AclRow,
  );
}
