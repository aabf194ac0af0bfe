import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Principal } from '../../domain/principal.ts';
import { NamespaceForbiddenError } from '../../errors/index.ts';
import {
  checkListing,
  checkNamespace,
  checkSearch,
  checkSharedRoot,
  expiryOf,
  itemAccessOf,
  joinNamespace,
  literalHead,
  MAX_LISTED_NAMESPACES,
  MAX_SEARCH_CANDIDATES,
  memoriesNamespace,
  normalizeNamespaceAcl,
  pageNamespaces,
  parseStoredValue,
  personalSpaceId,
  spaceOf,
  splitNamespace,
  validateItemWrite,
  type ItemAccess,
} from '../item-rules.ts';
import { indexTermsOf } from '../item-ranking.ts';
import {
  assemble,
  memoryHit,
  memoryOf,
  memoryValue,
  pagesInSql,
  pickMemories,
  pickSearch,
  searchHit,
  toStoreItem,
  type ItemRow,
  type Picked,
} from '../item-search.ts';
import type {
  ItemDeleteOutcome,
  ItemSearch,
  ItemWrite,
  MemoryRecord,
  MemoryStore,
  MemoryWrite,
  NamespaceListing,
} from '../ports/memory-store.ts';
import { validateMemory } from '../write-validation.ts';
import { mayWriteShared, readAcl, setAcl } from './namespace-acl.ts';
import type { SqliteConnection } from './connection.ts';
import { blobToVector, vectorToBlob } from './vectors/vector-codec.ts';

type Stmt = (sql: string) => Database.Statement;

interface Row {
  id: string;
  namespace: string;
  key: string;
  value: string | null;
  text: string | null;
  terms: string | null;
  vector: Buffer | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'i.id, i.namespace, i.key, i.value, i.text, i.terms, i.vector, i.created_at, i.updated_at';

/** A candidate of a ranked or filtered search: its value only for a filter, its text only where no terms stand in. */
const candidateColumns = (withValue: boolean) =>
  `i.id, i.namespace, i.key, ${withValue ? 'i.value' : 'NULL AS value'},
   CASE WHEN i.terms IS NULL THEN i.text END AS text, i.terms, i.vector, i.created_at, i.updated_at`;

const toRow = (row: Row): ItemRow => ({
  id: row.id,
  namespace: splitNamespace(row.namespace),
  key: row.key,
  value: row.value === null ? {} : parseStoredValue(row.value),
  text: row.text,
  terms: row.terms,
  vector: row.vector ? blobToVector(row.vector) : undefined,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const LIVE = '(i.expires_at IS NULL OR i.expires_at > @now)';

/** ACL entries matched against the principal's keys (a JSON array): `document_acl`'s probe style. */
const aclMatch = (space: string, writeOnly: boolean) =>
  `EXISTS (SELECT 1 FROM store_namespace_acl a WHERE a.space = ${space}${writeOnly ? ' AND a.can_write = 1' : ''}
           AND a.entry IN (SELECT value FROM json_each(@keys)))`;

/**
 * What the principal may read (`write`: may write) among items `i`: their own namespace, and shared namespaces they
 * own or whose ACL names them (an admin: every shared namespace). Never another user's own namespace.
 */
function accessCondition(access: ItemAccess, write: boolean): string {
  if (access.keys === undefined) return '(i.space = @personal OR i.personal = 0)';
  return `(i.space = @personal OR (i.personal = 0 AND EXISTS (
    SELECT 1 FROM store_namespaces s WHERE s.space = i.space AND (s.owner = @user OR ${aclMatch('s.space', write)}))))`;
}

const accessParams = (access: ItemAccess) => ({
  personal: access.personal,
  user: access.user,
  ...(access.keys === undefined ? {} : { keys: JSON.stringify(access.keys) }),
});

/** Items under a namespace prefix (labels joined): the prefix itself or anything below it. */
const UNDER = '(i.namespace = @prefix OR substr(i.namespace, 1, length(@prefix) + 1) = @prefix || char(31))';

/** Long-term memories and Store API items on SQLite; every read filters on the principal's access inside the SQL. */
export function sqliteMemoryStore(conn: SqliteConnection): MemoryStore {
  const stmt: Stmt = (sql) => conn.stmt(sql);
  const nowIso = () => new Date().toISOString();
  return {
    async addMemory(memory) {
      conn.assertWritable();
      return conn.guard('save a memory', () => conn.immediate(() => addMemory(stmt, memory)));
    },
    async searchMemories(user, query, limit) {
      return conn.guard('search memories', () => {
        const picked = pickMemories(indexedOf(stmt, user, nowIso(), MAX_SEARCH_CANDIDATES, true), query, limit);
        const rows = stmt(
          `SELECT ${COLUMNS} FROM store_items i WHERE i.space = ? AND i.id IN (SELECT value FROM json_each(?))`,
        ).all(personalSpaceId(user), JSON.stringify(picked.map((pick) => pick.id))) as Row[];
        return assemble(picked, rows.map(toRow), memoryHit(user));
      });
    },
    async listMemories(user) {
      return conn.guard('list memories', () =>
        indexedOf(stmt, user, nowIso(), undefined, false)
          .reverse()
          .map((row) => memoryOf(row as ItemRow & { text: string }, user)),
      );
    },
    async deleteMemory(user, id) {
      conn.assertWritable();
      return conn.guard(
        'delete a memory',
        () =>
          stmt('DELETE FROM store_items WHERE space = ? AND id = ? AND text IS NOT NULL').run(personalSpaceId(user), id)
            .changes > 0,
      );
    },

    async putItem(principal, item) {
      conn.assertWritable();
      const value = validateItemWrite(item);
      return conn.guard('put a store item', () => conn.immediate(() => putItem(stmt, principal, item, value)));
    },
    async getItem(principal, namespace, key, options) {
      checkNamespace(namespace);
      return conn.guard('read a store item', () => {
        const access = itemAccessOf(principal);
        const now = new Date();
        const row = stmt(
          `SELECT ${COLUMNS}, i.ttl_minutes FROM store_items i
           WHERE i.namespace = @namespace AND i.key = @key AND ${LIVE} AND ${accessCondition(access, false)}`,
        ).get({ namespace: joinNamespace(namespace), key, now: now.toISOString(), ...accessParams(access) }) as
          | (Row & { ttl_minutes: number | null })
          | undefined;
        if (!row) return undefined;
        if (options?.refreshTtl && row.ttl_minutes !== null) refresh(stmt, [row.id], now);
        return toStoreItem(toRow(row));
      });
    },
    async deleteItem(principal, namespace, key) {
      conn.assertWritable();
      checkNamespace(namespace);
      return conn.guard('delete a store item', () =>
        conn.immediate((): ItemDeleteOutcome => {
          const access = itemAccessOf(principal);
          const params = { namespace: joinNamespace(namespace), key, now: nowIso(), ...accessParams(access) };
          const where = 'i.namespace = @namespace AND i.key = @key';
          const deleted = stmt(
            `DELETE FROM store_items AS i WHERE ${where} AND ${LIVE} AND ${accessCondition(access, true)}`,
          ).run(params).changes;
          if (deleted > 0) return 'deleted';
          const visible = stmt(
            `SELECT 1 FROM store_items i WHERE ${where} AND ${LIVE} AND ${accessCondition(access, false)}`,
          ).get(params);
          return visible ? 'read_only' : 'absent';
        }),
      );
    },
    async searchItems(principal, search) {
      checkSearch(search);
      return conn.guard('search store items', () => searchItems(stmt, principal, search));
    },
    async listNamespaces(principal, listing) {
      checkListing(listing);
      return conn.guard('list store namespaces', () => listNamespaces(stmt, principal, listing));
    },
    async getNamespaceAcl(principal, root) {
      checkSharedRoot(root);
      return conn.guard('read a namespace ACL', () => readAcl(stmt, principal, root));
    },
    async setNamespaceAcl(principal, root, acl) {
      conn.assertWritable();
      checkSharedRoot(root);
      const entries = normalizeNamespaceAcl(acl);
      return conn.guard('change a namespace ACL', () => conn.immediate(() => setAcl(stmt, principal, root, entries)));
    },
    async sweepExpiredItems(limit) {
      if (limit <= 0) return 0;
      conn.assertWritable();
      return conn.guard(
        'sweep expired store items',
        () =>
          stmt(
            `DELETE FROM store_items WHERE pk IN (SELECT pk FROM store_items
             WHERE expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT ?)`,
          ).run(nowIso(), Math.floor(limit)).changes,
      );
    },
  };
}

/** The indexed, unexpired items of the user's own namespace, newest first (at most `limit`). */
function indexedOf(stmt: Stmt, user: string, now: string, limit: number | undefined, light: boolean): ItemRow[] {
  const rows = stmt(
    `SELECT ${light ? candidateColumns(false) : COLUMNS} FROM store_items i WHERE i.space = ? AND i.text IS NOT NULL AND ${LIVE.replaceAll('@now', '?')}
     ORDER BY i.pk DESC LIMIT ?`,
  ).all(personalSpaceId(user), now, limit ?? -1) as Row[];
  return rows.map(toRow);
}

/**
 * Inserts a memory unless the user already has one with the same idempotency key, which is then returned as is.
 * Runs inside the caller's IMMEDIATE transaction, so two processes replaying one approval cannot both insert.
 */
function addMemory(stmt: Stmt, memory: MemoryWrite): { memory: MemoryRecord; created: boolean } {
  validateMemory(memory);
  const space = personalSpaceId(memory.user);
  if (memory.idempotencyKey !== undefined) {
    const existing = stmt(
      `SELECT ${COLUMNS} FROM store_items i WHERE i.space = ? AND i.idempotency_key = ? AND i.text IS NOT NULL`,
    ).get(space, memory.idempotencyKey) as Row | undefined;
    if (existing)
      return { memory: memoryOf(toRow(existing) as ItemRow & { text: string }, memory.user), created: false };
  }
  const id = randomUUID();
  const text = memory.text.trim();
  const now = new Date().toISOString();
  const namespace = memoriesNamespace(memory.user);
  stmt(
    `INSERT INTO store_items (id, space, personal, namespace, key, value, text, terms, vector, idempotency_key, created_at, updated_at)
     VALUES (@id, @space, 1, @namespace, @id, @value, @text, @terms, @vector, @key, @now, @now)`,
  ).run({
    id,
    space,
    namespace: joinNamespace(namespace),
    value: JSON.stringify(memoryValue(text, memory.source)),
    text,
    terms: indexTermsOf(text),
    vector: vectorToBlob(memory.vector),
    key: memory.idempotencyKey ?? null,
    now,
  });
  return {
    memory: {
      id,
      user: memory.user,
      text,
      ...(memory.source === undefined ? {} : { source: memory.source }),
      createdAt: now,
      namespace,
      key: id,
    },
    created: true,
  };
}

/** Checks the right to write the item's namespace (creating a new shared one, owned by the writer), then upserts. */
function putItem(stmt: Stmt, principal: Principal, item: ItemWrite, value: string): { created: boolean } {
  const space = spaceOf(item.namespace);
  const access = itemAccessOf(principal);
  const now = new Date();
  const iso = now.toISOString();
  if (space.kind === 'personal') {
    if (space.id !== access.personal) throw new NamespaceForbiddenError(item.namespace, principal.id);
  } else {
    const owner = stmt('SELECT owner FROM store_namespaces WHERE space = ?').get(space.id) as
      | { owner: string }
      | undefined;
    if (!owner) {
      stmt('INSERT INTO store_namespaces (space, owner, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
        space.id,
        principal.id,
        iso,
        iso,
      );
    } else if (!mayWriteShared(stmt, access, space.id, owner.owner)) {
      throw new NamespaceForbiddenError(item.namespace, principal.id);
    }
  }
  const namespace = joinNamespace(item.namespace);
  // An expired item under the same key is gone: the put creates a new one.
  stmt('DELETE FROM store_items WHERE namespace = ? AND key = ? AND expires_at IS NOT NULL AND expires_at <= ?').run(
    namespace,
    item.key,
    iso,
  );
  const existed = stmt('SELECT 1 FROM store_items WHERE namespace = ? AND key = ?').get(namespace, item.key);
  const expires = expiryOf(now, item.ttlMinutes);
  stmt(
    `INSERT INTO store_items (id, space, personal, namespace, key, value, text, terms, vector, ttl_minutes, expires_at, created_at, updated_at)
     VALUES (@id, @space, @personal, @namespace, @key, @value, @text, @terms, @vector, @ttl, @expires, @now, @now)
     ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, text = excluded.text, terms = excluded.terms, vector = excluded.vector,
       ttl_minutes = excluded.ttl_minutes, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
  ).run({
    id: randomUUID(),
    space: space.id,
    personal: space.kind === 'personal' ? 1 : 0,
    namespace,
    key: item.key,
    value,
    text: item.text ?? null,
    terms: item.text === undefined ? null : indexTermsOf(item.text),
    vector: item.vector ? vectorToBlob(item.vector) : null,
    ttl: item.ttlMinutes ?? null,
    expires: expires ? expires.toISOString() : null,
    now: iso,
  });
  return { created: !existed };
}

function refresh(stmt: Stmt, ids: readonly string[], now: Date): void {
  if (ids.length === 0) return;
  stmt(
    `UPDATE store_items SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', @now, '+' || (ttl_minutes * 60) || ' seconds')
     WHERE ttl_minutes IS NOT NULL AND id IN (SELECT value FROM json_each(@ids))`,
  ).run({ now: now.toISOString(), ids: JSON.stringify(ids) });
}

function searchItems(stmt: Stmt, principal: Principal, search: ItemSearch) {
  const access = itemAccessOf(principal);
  const now = new Date();
  const head = literalHead(search.namespacePrefix);
  const inSql = pagesInSql(search);
  const params = {
    now: now.toISOString(),
    ...accessParams(access),
    ...(head.length > 0 ? { prefix: joinNamespace(head) } : {}),
  };
  const visible = `${LIVE} AND ${accessCondition(access, false)}`;
  const rows = stmt(
    `SELECT ${inSql ? COLUMNS : candidateColumns(search.filter !== undefined)} FROM store_items i
     WHERE ${visible}${head.length > 0 ? ` AND ${UNDER}` : ''}
       ${search.query ? 'AND i.text IS NOT NULL' : ''}
     ORDER BY i.updated_at DESC, i.pk DESC LIMIT @limit OFFSET @offset`,
  ).all({
    ...params,
    limit: inSql ? search.limit : MAX_SEARCH_CANDIDATES,
    offset: inSql ? search.offset : 0,
  }) as Row[];
  let page: ItemRow[];
  let picked: Picked[];
  if (inSql) {
    page = rows.map(toRow);
    picked = page.map((row) => ({ id: row.id }));
  } else {
    picked = pickSearch(rows.map(toRow), search);
    // The page read whole, under the same access rule (an ACL changed since the candidates were read applies).
    page = (
      stmt(`SELECT ${COLUMNS} FROM store_items i WHERE ${visible} AND i.id IN (SELECT value FROM json_each(@ids))`).all(
        {
          ...params,
          ids: JSON.stringify(picked.map((pick) => pick.id)),
        },
      ) as Row[]
    ).map(toRow);
  }
  const hits = assemble(picked, page, searchHit);
  if (search.refreshTtl)
    refresh(
      stmt,
      picked.map((pick) => pick.id),
      now,
    );
  return hits;
}

function listNamespaces(stmt: Stmt, principal: Principal, listing: NamespaceListing): string[][] {
  const access = itemAccessOf(principal);
  const head = literalHead(listing.prefix ?? []);
  const rows = stmt(
    `SELECT DISTINCT i.namespace FROM store_items i
     WHERE ${LIVE} AND ${accessCondition(access, false)}${head.length > 0 ? ` AND ${UNDER}` : ''}
     ORDER BY i.namespace LIMIT ${MAX_LISTED_NAMESPACES}`,
  ).all({
    now: new Date().toISOString(),
    ...accessParams(access),
    ...(head.length > 0 ? { prefix: joinNamespace(head) } : {}),
  }) as { namespace: string }[];
  return pageNamespaces(
    rows.map((row) => splitNamespace(row.namespace)),
    listing,
  );
}
