import type Database from 'better-sqlite3';
import type { Principal } from '../../domain/index.ts';
import { NotFoundError } from '../../errors/index.ts';
import { generateApiKey, hashApiKey, type ApiKeyRecord } from '../api-key.ts';
import { toUserRecord, type UserRow } from './row-mappers.ts';

type Stmt = (sql: string) => Database.Statement;

interface ApiKeyRow {
  id: string;
  user_name: string;
  created_at: string;
}

/** Creates a key for an existing user; the caller runs it in an IMMEDIATE transaction so the user cannot vanish meanwhile. */
export function createApiKey(stmt: Stmt, user: string): { id: string; key: string } {
  if (!stmt('SELECT 1 FROM users WHERE name = ?').get(user)) {
    throw new NotFoundError('user', user, `Add them first with \`evident users add ${user} --groups …\`.`);
  }
  const created = generateApiKey();
  stmt('INSERT INTO api_keys (id, user_name, key_hash, created_at) VALUES (?, ?, ?, ?)').run(
    created.id,
    user,
    hashApiKey(created.key),
    new Date().toISOString(),
  );
  return created;
}

export function principalForApiKey(stmt: Stmt, key: string): Principal | undefined {
  const row = stmt(
    `SELECT u.name, u.groups, u.roles, u.created_at FROM api_keys k JOIN users u ON u.name = k.user_name
     WHERE k.key_hash = ?`,
  ).get(hashApiKey(key)) as UserRow | undefined;
  if (!row) return undefined;
  const user = toUserRecord(row);
  return { id: user.name, groups: user.groups, roles: user.roles };
}

export function listApiKeys(stmt: Stmt, user: string): ApiKeyRecord[] {
  const rows = stmt('SELECT id, user_name, created_at FROM api_keys WHERE user_name = ? ORDER BY created_at, rowid').all(user) as ApiKeyRow[];
  return rows.map((row) => ({ id: row.id, user: row.user_name, createdAt: row.created_at }));
}

export function revokeApiKey(stmt: Stmt, id: string): boolean {
  return stmt('DELETE FROM api_keys WHERE id = ?').run(id).changes > 0;
}
