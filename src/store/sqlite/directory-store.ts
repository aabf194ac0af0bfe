import { randomUUID } from 'node:crypto';
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
import type { SqliteConnection } from './connection.ts';

interface UserRow {
  name: string;
  groups: string;
  active: number;
  scim_id: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
}

interface GroupRow {
  id: string;
  display_name: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
}

const USER_COLUMNS =
  'name, groups, active, scim_id, external_id, created_at, coalesce(updated_at, created_at) AS updated_at';
const GROUP_COLUMNS = 'id, display_name, external_id, created_at, updated_at';

const toUser = (row: UserRow): DirectoryUser => ({
  id: row.scim_id,
  name: row.name,
  ...(row.external_id === null ? {} : { externalId: row.external_id }),
  active: row.active === 1,
  groups: JSON.parse(row.groups) as string[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The directory (SCIM users and groups) on SQLite; a group's members are the users whose groups hold its name. */
export function sqliteDirectoryStore(conn: SqliteConnection): DirectoryStore {
  const stmt = (sql: string) => conn.stmt(sql);
  const userById = (id: string) =>
    stmt(`SELECT ${USER_COLUMNS} FROM users WHERE scim_id = ?`).get(id) as UserRow | undefined;
  const groupById = (id: string) =>
    stmt(`SELECT ${GROUP_COLUMNS} FROM directory_groups WHERE id = ?`).get(id) as GroupRow | undefined;
  const membersOf = (name: string) =>
    stmt(
      `SELECT ${USER_COLUMNS} FROM users
       WHERE scim_id IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(users.groups) WHERE value = ?) ORDER BY name`,
    ).all(name) as UserRow[];
  const toGroup = (row: GroupRow, members: boolean): DirectoryGroup => ({
    id: row.id,
    displayName: row.display_name,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    members: members ? membersOf(row.display_name).map((m) => ({ id: m.scim_id, name: m.name })) : [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
  const setGroups = (name: string, groups: string[], now: string) =>
    stmt('UPDATE users SET groups = ?, updated_at = ? WHERE name = ?').run(JSON.stringify(groups), now, name);
  /** Adds `groupName` to each user of `ids`, refusing an id that is no directory user. */
  const addMembers = (groupName: string, ids: readonly string[], now: string) => {
    for (const id of new Set(ids)) {
      const user = userById(id);
      if (!user) throw unknownMember(id);
      const groups = JSON.parse(user.groups) as string[];
      if (!groups.includes(groupName)) setGroups(user.name, withGroup(groups, groupName, user.name), now);
    }
  };
  const removeMembers = (groupName: string, users: readonly UserRow[], now: string) => {
    for (const user of users) {
      const groups = JSON.parse(user.groups) as string[];
      if (groups.includes(groupName)) setGroups(user.name, withoutGroup(groups, groupName), now);
    }
  };
  const write = <T>(what: string, fn: () => T): T => {
    conn.assertWritable();
    return conn.guard(what, () => conn.immediate(fn));
  };

  return {
    async findDirectoryUsers(match) {
      return conn.guard('find directory users', () => {
        const rows = stmt(
          `SELECT ${USER_COLUMNS} FROM users WHERE scim_id IS NOT NULL
             AND (@name IS NULL OR lower(name) = lower(@name))
             AND (@externalId IS NULL OR external_id = @externalId)
           ORDER BY name`,
        ).all({ name: match.name ?? null, externalId: match.externalId ?? null }) as UserRow[];
        return rows.map(toUser);
      });
    },

    async getDirectoryUser(id) {
      const row = conn.guard('read a directory user', () => userById(id));
      return row ? toUser(row) : undefined;
    },

    async createDirectoryUser(user) {
      assertValidUser({ name: user.name, groups: [] });
      assertExternalId(user.externalId);
      return write('create a directory user', () => {
        const existing = stmt('SELECT scim_id FROM users WHERE name = ?').get(user.name) as
          | { scim_id: string | null }
          | undefined;
        if (existing && existing.scim_id !== null) throw new DirectoryConflictError('user', user.name);
        const now = new Date().toISOString();
        const id = randomUUID();
        if (existing) {
          // Deleted by the directory before: the same row (and what it owns) under a new id.
          stmt(
            `UPDATE users SET scim_id = ?, external_id = ?, active = ?, groups = '[]', updated_at = ? WHERE name = ?`,
          ).run(id, user.externalId ?? null, user.active ? 1 : 0, now, user.name);
        } else {
          stmt(
            `INSERT INTO users (name, groups, roles, created_at, active, scim_id, external_id, updated_at)
             VALUES (?, '[]', '["member"]', ?, ?, ?, ?, ?)`,
          ).run(user.name, now, user.active ? 1 : 0, id, user.externalId ?? null, now);
        }
        return toUser(userById(id) as UserRow);
      });
    },

    async updateDirectoryUser(id, patch) {
      assertExternalId(patch.externalId);
      return write('update a directory user', () => {
        const row = userById(id);
        if (!row) return undefined;
        stmt(
          `UPDATE users SET updated_at = @now,
             external_id = CASE WHEN @setExternal THEN @externalId ELSE external_id END,
             active = coalesce(@active, active)
           WHERE scim_id = @id`,
        ).run({
          id,
          now: new Date().toISOString(),
          setExternal: patch.externalId === undefined ? 0 : 1,
          externalId: patch.externalId ?? null,
          active: patch.active === undefined ? null : patch.active ? 1 : 0,
        });
        return toUser(userById(id) as UserRow);
      });
    },

    async deleteDirectoryUser(id) {
      return write('delete a directory user', () => {
        const row = userById(id);
        if (!row) return undefined;
        stmt('DELETE FROM api_keys WHERE user_name = ?').run(row.name);
        stmt(
          `UPDATE users SET active = 0, groups = '[]', scim_id = NULL, external_id = NULL, updated_at = ? WHERE name = ?`,
        ).run(new Date().toISOString(), row.name);
        return { ...toUser(row), active: false };
      });
    },

    async findDirectoryGroups(match) {
      return conn.guard('find directory groups', () => {
        const rows = stmt(
          `SELECT ${GROUP_COLUMNS} FROM directory_groups
           WHERE (@displayName IS NULL OR lower(display_name) = lower(@displayName))
             AND (@externalId IS NULL OR external_id = @externalId)
           ORDER BY display_name`,
        ).all({ displayName: match.displayName ?? null, externalId: match.externalId ?? null }) as GroupRow[];
        const groups = rows.map((row) => toGroup(row, false));
        if (!(match.members ?? true) || groups.length === 0) return groups;
        // Every listed group's members in one scan of the users, not one per group.
        const byName = new Map(groups.map((g) => [g.displayName, g]));
        const members = stmt(
          `SELECT j.value AS display_name, u.scim_id, u.name FROM users u, json_each(u.groups) j
           WHERE u.scim_id IS NOT NULL AND j.value IN (SELECT display_name FROM directory_groups) ORDER BY u.name`,
        ).all() as { display_name: string; scim_id: string; name: string }[];
        for (const m of members) byName.get(m.display_name)?.members.push({ id: m.scim_id, name: m.name });
        return groups;
      });
    },

    async getDirectoryGroup(id, options) {
      return conn.guard('read a directory group', () => {
        const row = groupById(id);
        return row ? toGroup(row, options?.members ?? true) : undefined;
      });
    },

    async createDirectoryGroup(group) {
      assertGroupName(group.displayName);
      assertExternalId(group.externalId);
      assertMemberCount(group.members);
      return write('create a directory group', () => {
        if (stmt('SELECT 1 FROM directory_groups WHERE display_name = ?').get(group.displayName))
          throw new DirectoryConflictError('group', group.displayName);
        const now = new Date().toISOString();
        const id = randomUUID();
        stmt(
          'INSERT INTO directory_groups (id, display_name, external_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
        ).run(id, group.displayName, group.externalId ?? null, now, now);
        // Its members are exactly those given: users who held the name before and are not listed leave it.
        const listed = new Set(group.members);
        removeMembers(
          group.displayName,
          membersOf(group.displayName).filter((m) => !listed.has(m.scim_id)),
          now,
        );
        addMembers(group.displayName, group.members, now);
        return toGroup(groupById(id) as GroupRow, true);
      });
    },

    async updateDirectoryGroup(id, patch) {
      if (patch.displayName !== undefined) assertGroupName(patch.displayName);
      assertExternalId(patch.externalId);
      assertMemberCount(patch.add);
      assertMemberCount(patch.remove);
      return write('update a directory group', () => {
        const row = groupById(id);
        if (!row) return undefined;
        const now = new Date().toISOString();
        let name = row.display_name;
        if (patch.displayName !== undefined && patch.displayName !== name) {
          const taken = stmt('SELECT 1 FROM directory_groups WHERE display_name = ? AND id <> ?').get(
            patch.displayName,
            id,
          );
          if (taken) throw new DirectoryConflictError('group', patch.displayName);
          for (const member of membersOf(name))
            setGroups(member.name, renamedGroup(JSON.parse(member.groups) as string[], name, patch.displayName), now);
          name = patch.displayName;
        }
        if (patch.remove?.length) {
          const removed = new Set(patch.remove);
          removeMembers(
            name,
            membersOf(name).filter((m) => removed.has(m.scim_id)),
            now,
          );
        }
        if (patch.add?.length) addMembers(name, patch.add, now);
        stmt(
          `UPDATE directory_groups SET display_name = @name, updated_at = @now,
             external_id = CASE WHEN @setExternal THEN @externalId ELSE external_id END
           WHERE id = @id`,
        ).run({
          id,
          name,
          now,
          setExternal: patch.externalId === undefined ? 0 : 1,
          externalId: patch.externalId ?? null,
        });
        return toGroup(groupById(id) as GroupRow, true);
      });
    },

    async deleteDirectoryGroup(id) {
      return write('delete a directory group', () => {
        const row = groupById(id);
        if (!row) return undefined;
        const group = toGroup(row, true);
        const now = new Date().toISOString();
        // Every holder of the name, directory user or not: the group is gone, so is the access it gave.
        const holders = stmt(
          `SELECT ${USER_COLUMNS.replace('scim_id', "coalesce(scim_id, '') AS scim_id")} FROM users
           WHERE EXISTS (SELECT 1 FROM json_each(users.groups) WHERE value = ?)`,
        ).all(row.display_name) as UserRow[];
        removeMembers(row.display_name, holders, now);
        stmt('DELETE FROM directory_groups WHERE id = ?').run(id);
        return group;
      });
    },
  };
}
