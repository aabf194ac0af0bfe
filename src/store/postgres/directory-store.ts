import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { assertValidUser } from '../../domain/index.ts';
import { DirectoryConflictError } from '../../errors/index.ts';
import {
  assertExternalId,
  assertGroupName,
  assertMemberCount,
  renamedGroup,
  unknownMember,
  withGroup,
  withoutGroup,
} from '../directory-rules.ts';
import type { DirectoryGroup, DirectoryStore, DirectoryUser } from '../ports/directory-store.ts';
import type { PostgresPool } from './pool.ts';

interface UserRow {
  name: string;
  groups: string[];
  active: boolean;
  scim_id: string;
  external_id: string | null;
  created_at: Date;
  updated_at: Date;
}

interface GroupRow {
  id: string;
  display_name: string;
  external_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const USER_COLUMNS =
  'name, groups, active, scim_id, external_id, created_at, coalesce(updated_at, created_at) AS updated_at';
const GROUP_COLUMNS = 'id, display_name, external_id, created_at, updated_at';

const toUser = (row: UserRow): DirectoryUser => ({
  id: row.scim_id,
  name: row.name,
  ...(row.external_id === null ? {} : { externalId: row.external_id }),
  active: row.active,
  groups: row.groups,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const userById = async (c: PoolClient, id: string, lock = '') =>
  (await c.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE scim_id = $1 ${lock}`, [id])).rows[0];
const groupById = async (c: PoolClient, id: string, lock = '') =>
  (await c.query<GroupRow>(`SELECT ${GROUP_COLUMNS} FROM directory_groups WHERE id = $1 ${lock}`, [id])).rows[0];
/** The users holding a group name (directory users only unless `everyone`), locked when asked. */
const holdersOf = async (c: PoolClient, name: string, options: { lock?: boolean; everyone?: boolean } = {}) =>
  (
    await c.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE groups @> ARRAY[$1]::text[] ${options.everyone ? '' : 'AND scim_id IS NOT NULL'}
       ORDER BY name COLLATE "C" ${options.lock ? 'FOR UPDATE' : ''}`,
      [name],
    )
  ).rows;
const setGroups = (c: PoolClient, name: string, groups: string[], now: Date) =>
  c.query('UPDATE users SET groups = $2, updated_at = $3 WHERE name = $1', [name, groups, now]);

async function toGroup(c: PoolClient, row: GroupRow, members: boolean): Promise<DirectoryGroup> {
  return {
    id: row.id,
    displayName: row.display_name,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    members: members ? (await holdersOf(c, row.display_name)).map((m) => ({ id: m.scim_id, name: m.name })) : [],
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

async function addMembers(c: PoolClient, groupName: string, ids: readonly string[], now: Date): Promise<void> {
  for (const id of new Set(ids)) {
    const user = await userById(c, id, 'FOR UPDATE');
    if (!user) throw unknownMember(id);
    if (!user.groups.includes(groupName))
      await setGroups(c, user.name, withGroup(user.groups, groupName, user.name), now);
  }
}

async function removeMembers(c: PoolClient, groupName: string, users: readonly UserRow[], now: Date): Promise<void> {
  for (const user of users) await setGroups(c, user.name, withoutGroup(user.groups, groupName), now);
}

/** The directory (SCIM users and groups) on PostgreSQL; a group's members are the users whose groups hold its name. */
export function postgresDirectoryStore(pool: PostgresPool): DirectoryStore {
  return {
    async findDirectoryUsers(match) {
      return pool.withClient('find directory users', async (c) => {
        const rows = await c.query<UserRow>(
          `SELECT ${USER_COLUMNS} FROM users WHERE scim_id IS NOT NULL
             AND ($1::text IS NULL OR lower(name) = lower($1)) AND ($2::text IS NULL OR external_id = $2)
           ORDER BY name COLLATE "C"`,
          [match.name ?? null, match.externalId ?? null],
        );
        return rows.rows.map(toUser);
      });
    },

    async getDirectoryUser(id) {
      const row = await pool.withClient('read a directory user', (c) => userById(c, id));
      return row ? toUser(row) : undefined;
    },

    async createDirectoryUser(user) {
      assertValidUser({ name: user.name, groups: [] });
      assertExternalId(user.externalId);
      return pool.transaction('create a directory user', async (c) => {
        const existing = (
          await c.query<{ scim_id: string | null }>('SELECT scim_id FROM users WHERE name = $1 FOR UPDATE', [user.name])
        ).rows[0];
        if (existing && existing.scim_id !== null) throw new DirectoryConflictError('user', user.name);
        const now = new Date();
        const id = randomUUID();
        // A user the directory deleted before comes back as the same row (and what it owns) under a new id.
        const row = (
          await c.query<UserRow>(
            `INSERT INTO users (name, groups, roles, created_at, active, scim_id, external_id, updated_at)
             VALUES ($1, '{}', '{member}', $2, $3, $4, $5, $2)
             ON CONFLICT (name) DO UPDATE SET scim_id = excluded.scim_id, external_id = excluded.external_id,
               active = excluded.active, groups = '{}', updated_at = excluded.updated_at
             RETURNING ${USER_COLUMNS}`,
            [user.name, now, user.active, id, user.externalId ?? null],
          )
        ).rows[0] as UserRow;
        return toUser(row);
      });
    },

    async updateDirectoryUser(id, patch) {
      assertExternalId(patch.externalId);
      const row = await pool.withClient(
        'update a directory user',
        async (c) =>
          (
            await c.query<UserRow>(
              `UPDATE users SET updated_at = $2,
                 external_id = CASE WHEN $3 THEN $4 ELSE external_id END, active = coalesce($5, active)
               WHERE scim_id = $1 RETURNING ${USER_COLUMNS}`,
              [id, new Date(), patch.externalId !== undefined, patch.externalId ?? null, patch.active ?? null],
            )
          ).rows[0],
      );
      return row ? toUser(row) : undefined;
    },

    async deleteDirectoryUser(id) {
      return pool.transaction('delete a directory user', async (c) => {
        const row = await userById(c, id, 'FOR UPDATE');
        if (!row) return undefined;
        await c.query('DELETE FROM api_keys WHERE user_name = $1', [row.name]);
        await c.query(
          `UPDATE users SET active = false, groups = '{}', scim_id = NULL, external_id = NULL, updated_at = $2
           WHERE name = $1`,
          [row.name, new Date()],
        );
        return { ...toUser(row), active: false };
      });
    },

    async findDirectoryGroups(match) {
      return pool.withClient('find directory groups', async (c) => {
        const rows = await c.query<GroupRow>(
          `SELECT ${GROUP_COLUMNS} FROM directory_groups
           WHERE ($1::text IS NULL OR lower(display_name) = lower($1)) AND ($2::text IS NULL OR external_id = $2)
           ORDER BY display_name COLLATE "C"`,
          [match.displayName ?? null, match.externalId ?? null],
        );
        const groups: DirectoryGroup[] = [];
        for (const row of rows.rows) groups.push(await toGroup(c, row, false));
        if (!(match.members ?? true) || groups.length === 0) return groups;
        // Every listed group's members in one query, not one per group.
        const members = await c.query<{ display_name: string; scim_id: string; name: string }>(
          `SELECT g.display_name, u.scim_id, u.name FROM directory_groups g
           JOIN users u ON u.groups @> ARRAY[g.display_name] AND u.scim_id IS NOT NULL
           WHERE g.id = ANY($1) ORDER BY u.name COLLATE "C"`,
          [groups.map((g) => g.id)],
        );
        const byName = new Map(groups.map((g) => [g.displayName, g]));
        for (const m of members.rows) byName.get(m.display_name)?.members.push({ id: m.scim_id, name: m.name });
        return groups;
      });
    },

    async getDirectoryGroup(id, options) {
      return pool.withClient('read a directory group', async (c) => {
        const row = await groupById(c, id);
        return row ? toGroup(c, row, options?.members ?? true) : undefined;
      });
    },

    async createDirectoryGroup(group) {
      assertGroupName(group.displayName);
      assertExternalId(group.externalId);
      assertMemberCount(group.members);
      return pool.transaction('create a directory group', async (c) => {
        const now = new Date();
        const id = randomUUID();
        const inserted = await c.query(
          `INSERT INTO directory_groups (id, display_name, external_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $4) ON CONFLICT (display_name) DO NOTHING`,
          [id, group.displayName, group.externalId ?? null, now],
        );
        if (inserted.rowCount === 0) throw new DirectoryConflictError('group', group.displayName);
        // Its members are exactly those given: users who held the name before and are not listed leave it.
        const listed = new Set(group.members);
        const holders = await holdersOf(c, group.displayName, { lock: true });
        await removeMembers(
          c,
          group.displayName,
          holders.filter((m) => !listed.has(m.scim_id)),
          now,
        );
        await addMembers(c, group.displayName, group.members, now);
        return toGroup(c, (await groupById(c, id)) as GroupRow, true);
      });
    },

    async updateDirectoryGroup(id, patch) {
      if (patch.displayName !== undefined) assertGroupName(patch.displayName);
      assertExternalId(patch.externalId);
      assertMemberCount(patch.add);
      assertMemberCount(patch.remove);
      return pool.transaction('update a directory group', async (c) => {
        const row = await groupById(c, id, 'FOR UPDATE');
        if (!row) return undefined;
        const now = new Date();
        let name = row.display_name;
        if (patch.displayName !== undefined && patch.displayName !== name) {
          const taken = await c.query('SELECT 1 FROM directory_groups WHERE display_name = $1 AND id <> $2', [
            patch.displayName,
            id,
          ]);
          if ((taken.rowCount ?? 0) > 0) throw new DirectoryConflictError('group', patch.displayName);
          for (const member of await holdersOf(c, name, { lock: true }))
            await setGroups(c, member.name, renamedGroup(member.groups, name, patch.displayName), now);
          name = patch.displayName;
        }
        if (patch.remove?.length) {
          const removed = new Set(patch.remove);
          const holders = await holdersOf(c, name, { lock: true });
          await removeMembers(
            c,
            name,
            holders.filter((m) => removed.has(m.scim_id)),
            now,
          );
        }
        if (patch.add?.length) await addMembers(c, name, patch.add, now);
        await c.query(
          `UPDATE directory_groups SET display_name = $2, updated_at = $3,
             external_id = CASE WHEN $4 THEN $5 ELSE external_id END WHERE id = $1`,
          [id, name, now, patch.externalId !== undefined, patch.externalId ?? null],
        );
        return toGroup(c, (await groupById(c, id)) as GroupRow, true);
      });
    },

    async deleteDirectoryGroup(id) {
      return pool.transaction('delete a directory group', async (c) => {
        const row = await groupById(c, id, 'FOR UPDATE');
        if (!row) return undefined;
        const group = await toGroup(c, row, true);
        // Every holder of the name, directory user or not: the group is gone, so is the access it gave.
        await removeMembers(
          c,
          row.display_name,
          await holdersOf(c, row.display_name, { lock: true, everyone: true }),
          new Date(),
        );
        await c.query('DELETE FROM directory_groups WHERE id = $1', [id]);
        return group;
      });
    },
  };
}
