import { randomUUID } from 'node:crypto';
import { assertValidUser, type Role } from '../../domain/index.ts';
import { NotFoundError } from '../../errors/index.ts';
import { generateApiKey, hashApiKey } from '../api-key.ts';
import type { PrincipalStore } from '../ports/principal-store.ts';
import type { PostgresPool } from './pool.ts';
import { toUserRecord, USER_COLUMNS, type UserRow } from './row-mappers.ts';

/** Users and their API keys on Postgres; only sha256 hashes of keys are stored. */
export function postgresPrincipalStore(pool: PostgresPool): PrincipalStore {
  return {
    async upsertUser(user) {
      // The one user check (reserved identities, name and group rules), whoever calls.
      assertValidUser(user);
      const { name } = user;
      const row = await pool.withClient(
        'save a user',
        async (c) =>
          (
            await c.query<UserRow>(
              `INSERT INTO users (name, groups, roles, created_at, scim_id, updated_at) VALUES ($1, $2, $3, $4, $6, $4)
             ON CONFLICT (name) DO UPDATE SET groups = excluded.groups, updated_at = excluded.updated_at,
               roles = CASE WHEN $5 THEN excluded.roles ELSE users.roles END
             RETURNING ${USER_COLUMNS}`,
              [
                name,
                [...new Set(user.groups)],
                user.roles ?? ['member'],
                new Date(),
                user.roles !== undefined,
                randomUUID(),
              ],
            )
          ).rows[0] as UserRow,
      );
      return toUserRecord(row);
    },

    async getUser(name) {
      const row = await pool.withClient(
        'read a user',
        async (c) => (await c.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE name = $1`, [name])).rows[0],
      );
      return row ? toUserRecord(row) : undefined;
    },

    async listUsers() {
      const rows = await pool.withClient(
        'list users',
        async (c) => (await c.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users ORDER BY name COLLATE "C"`)).rows,
      );
      return rows.map(toUserRecord);
    },

    async createApiKey(user) {
      // The user row is locked (FOR SHARE) in the transaction, so the user cannot vanish meanwhile.
      return pool.transaction('create an API key', async (c) => {
        if ((await c.query('SELECT 1 FROM users WHERE name = $1 FOR SHARE', [user])).rowCount === 0) {
          throw new NotFoundError('user', user, `Add them first with \`evident users add ${user} --groups …\`.`);
        }
        const created = generateApiKey();
        await c.query('INSERT INTO api_keys (id, user_name, key_hash, created_at) VALUES ($1, $2, $3, $4)', [
          created.id,
          user,
          hashApiKey(created.key),
          new Date(),
        ]);
        return created;
      });
    },

    async principalForApiKey(key) {
      return pool.withClient('check an API key', async (c) => {
        const row = (
          await c.query<{ name: string; groups: string[]; roles: Role[] }>(
            `SELECT u.name, u.groups, u.roles FROM api_keys k JOIN users u ON u.name = k.user_name
             WHERE k.key_hash = $1 AND u.active`,
            [hashApiKey(key)],
          )
        ).rows[0];
        return row ? { id: row.name, groups: row.groups, roles: row.roles } : undefined;
      });
    },

    async listApiKeys(user) {
      return pool.withClient('list API keys', async (c) => {
        const result = await c.query<{ id: string; user_name: string; created_at: Date }>(
          'SELECT id, user_name, created_at FROM api_keys WHERE user_name = $1 ORDER BY created_at, seq',
          [user],
        );
        return result.rows.map((row) => ({ id: row.id, user: row.user_name, createdAt: row.created_at.toISOString() }));
      });
    },

    async revokeApiKey(id) {
      return pool.withClient(
        'revoke an API key',
        async (c) => ((await c.query('DELETE FROM api_keys WHERE id = $1', [id])).rowCount ?? 0) > 0,
      );
    },

    async setUserActive(name, active) {
      // A user the directory had deleted gets a new SCIM id when an operator activates them again.
      const row = await pool.withClient(
        'activate or deactivate a user',
        async (c) =>
          (
            await c.query<UserRow>(
              `UPDATE users SET active = $2, updated_at = $3,
                 scim_id = CASE WHEN $2 THEN coalesce(scim_id, $4) ELSE scim_id END
               WHERE name = $1 RETURNING ${USER_COLUMNS}`,
              [name, active, new Date(), randomUUID()],
            )
          ).rows[0],
      );
      return row ? toUserRecord(row) : undefined;
    },
  };
}
