import type { PoolClient } from 'pg';
import type { Principal, Role } from '../../domain/index.ts';
import { NotFoundError } from '../../errors/index.ts';
import { generateApiKey, hashApiKey, type ApiKeyRecord } from '../api-key.ts';

/** API keys on Postgres: only sha256 hashes are stored. */
export const apiKeys = {
  /** The caller runs this in a transaction that locks the user row, so the user cannot vanish meanwhile. */
  async create(client: PoolClient, user: string): Promise<{ id: string; key: string }> {
    if ((await client.query('SELECT 1 FROM users WHERE name = $1 FOR SHARE', [user])).rowCount === 0) {
      throw new NotFoundError('user', user, `Add them first with \`evident users add ${user} --groups …\`.`);
    }
    const created = generateApiKey();
    await client.query('INSERT INTO api_keys (id, user_name, key_hash, created_at) VALUES ($1, $2, $3, $4)', [
      created.id,
      user,
      hashApiKey(created.key),
      new Date(),
    ]);
    return created;
  },

  async principal(client: PoolClient, key: string): Promise<Principal | undefined> {
    const row = (
      await client.query<{ name: string; groups: string[]; roles: Role[] }>(
        'SELECT u.name, u.groups, u.roles FROM api_keys k JOIN users u ON u.name = k.user_name WHERE k.key_hash = $1',
        [hashApiKey(key)],
      )
    ).rows[0];
    return row ? { id: row.name, groups: row.groups, roles: row.roles } : undefined;
  },

  async list(client: PoolClient, user: string): Promise<ApiKeyRecord[]> {
    const result = await client.query<{ id: string; user_name: string; created_at: Date }>(
      'SELECT id, user_name, created_at FROM api_keys WHERE user_name = $1 ORDER BY created_at, seq',
      [user],
    );
    return result.rows.map((row) => ({ id: row.id, user: row.user_name, createdAt: row.created_at.toISOString() }));
  },

  async revoke(client: PoolClient, id: string): Promise<boolean> {
    return ((await client.query('DELETE FROM api_keys WHERE id = $1', [id])).rowCount ?? 0) > 0;
  },
};
