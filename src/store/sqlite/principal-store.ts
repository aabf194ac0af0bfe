import { randomUUID } from 'node:crypto';
import { assertValidUser } from '../../domain/index.ts';
import { NotFoundError } from '../../errors/index.ts';
import { generateApiKey, hashApiKey, type ApiKeyRecord } from '../api-key.ts';
import type { PrincipalStore } from '../ports/principal-store.ts';
import { toUserRecord, USER_COLUMNS, type UserRow } from './row-mappers.ts';
import type { SqliteConnection } from './connection.ts';

interface ApiKeyRow {
  id: string;
  user_name: string;
  created_at: string;
}

/** Users and their API keys on SQLite; only sha256 hashes of keys are stored. */
export function sqlitePrincipalStore(conn: SqliteConnection): PrincipalStore {
  const stmt = (sql: string) => conn.stmt(sql);
  return {
    async upsertUser(user) {
      conn.assertWritable();
      // The one user check (reserved identities, name and group rules), whoever calls.
      assertValidUser(user);
      const { name } = user;
      const row = conn.guard('save a user', () =>
        conn.immediate(() => {
          stmt(
            `INSERT INTO users (name, groups, roles, created_at, scim_id, updated_at)
             VALUES (@name, @groups, @roles, @createdAt, @scimId, @createdAt)
             ON CONFLICT (name) DO UPDATE SET groups = excluded.groups, updated_at = excluded.updated_at,
               roles = CASE WHEN @rolesGiven THEN excluded.roles ELSE users.roles END`,
          ).run({
            name,
            groups: JSON.stringify([...new Set(user.groups)]),
            roles: JSON.stringify(user.roles ?? ['member']),
            rolesGiven: user.roles === undefined ? 0 : 1,
            createdAt: new Date().toISOString(),
            scimId: randomUUID(),
          });
          return stmt(`SELECT ${USER_COLUMNS} FROM users WHERE name = ?`).get(name) as UserRow;
        }),
      );
      return toUserRecord(row);
    },

    async getUser(name) {
      const row = stmt(`SELECT ${USER_COLUMNS} FROM users WHERE name = ?`).get(name) as UserRow | undefined;
      return row ? toUserRecord(row) : undefined;
    },

    async listUsers() {
      return (stmt(`SELECT ${USER_COLUMNS} FROM users ORDER BY name`).all() as UserRow[]).map(toUserRecord);
    },

    async createApiKey(user) {
      conn.assertWritable();
      // IMMEDIATE, so the user cannot vanish between the check and the insert.
      return conn.guard('create an API key', () =>
        conn.immediate(() => {
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
        }),
      );
    },

    async principalForApiKey(key) {
      return conn.guard('check an API key', () => {
        const row = stmt(
          `SELECT u.name, u.groups, u.roles, u.active, u.created_at FROM api_keys k JOIN users u ON u.name = k.user_name
           WHERE k.key_hash = ? AND u.active = 1`,
        ).get(hashApiKey(key)) as UserRow | undefined;
        if (!row) return undefined;
        const found = toUserRecord(row);
        return { id: found.name, groups: found.groups, roles: found.roles };
      });
    },

    async listApiKeys(user) {
      return conn.guard('list API keys', () => {
        const rows = stmt(
          'SELECT id, user_name, created_at FROM api_keys WHERE user_name = ? ORDER BY created_at, rowid',
        ).all(user) as ApiKeyRow[];
        return rows.map((row): ApiKeyRecord => ({ id: row.id, user: row.user_name, createdAt: row.created_at }));
      });
    },

    async revokeApiKey(id) {
      conn.assertWritable();
      return conn.guard('revoke an API key', () => stmt('DELETE FROM api_keys WHERE id = ?').run(id).changes > 0);
    },

    async setUserActive(name, active) {
      conn.assertWritable();
      const row = conn.guard('activate or deactivate a user', () =>
        conn.immediate(() => {
          // A user the directory had deleted gets a new SCIM id when an operator activates them again.
          stmt(
            `UPDATE users SET active = @active, updated_at = @now,
               scim_id = CASE WHEN @active = 1 THEN coalesce(scim_id, @scimId) ELSE scim_id END
             WHERE name = @name`,
          ).run({ name, active: active ? 1 : 0, now: new Date().toISOString(), scimId: randomUUID() });
          return stmt(`SELECT ${USER_COLUMNS} FROM users WHERE name = ?`).get(name) as UserRow | undefined;
        }),
      );
      return row ? toUserRecord(row) : undefined;
    },
  };
}
