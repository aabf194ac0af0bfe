import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import pgvector from 'pgvector';
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
  StoreItem,
} from '../ports/memory-store.ts';
import { validateMemory } from '../write-validation.ts';
import { mayWrite, readAcl, setAcl, type NamespaceRow } from './namespace-acl.ts';
import type { PostgresPool } from './pool.ts';

interface Row {
  id: string;
  namespace: string;
  key: string;
  value: string | null;
  text: string | null;
  terms: string | null;
  vector: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'i.id, i.namespace, i.key, i.value, i.text, i.terms, i.vector::text AS vector, i.created_at, i.updated_at';

/** A candidate of a ranked or filtered search: its value only for a filter, its text only where no terms stand in. */
const candidateColumns = (withValue: boolean) =>
  `i.id, i.namespace, i.key, ${withValue ? 'i.value' : 'NULL AS value'},
   CASE WHEN i.terms IS NULL THEN i.text END AS text, i.terms, i.vector::text AS vector, i.created_at, i.updated_at`;

const toRow = (row: Row): ItemRow => ({
  id: row.id,
  namespace: splitNamespace(row.namespace),
  key: row.key,
  value: row.value === null ? {} : parseStoredValue(row.value),
  text: row.text,
  terms: row.terms,
  vector: row.vector === null ? undefined : Float32Array.from(pgvector.fromSql(row.vector) as number[]),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** Numbered bind parameters, added as a statement is written. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const live = (p: Params, now: Date) => `(i.expires_at IS NULL OR i.expires_at > ${p.add(now)})`;

/**
 * What the principal may read (`write`: may write) among items `i`: their own namespace, and shared namespaces they
 * own or whose ACL names them (an admin: every shared namespace). Never another user's own namespace.
 */
function accessCondition(p: Params, access: ItemAccess, write: boolean): string {
  const personal = p.add(access.personal);
  if (access.keys === undefined) return `(i.space = ${personal} OR NOT i.personal)`;
  const keys = p.add(access.keys);
  const granted = write
    ? `s.write_acl && ${keys}::text[]`
    : `(s.read_acl && ${keys}::text[] OR s.write_acl && ${keys}::text[])`;
  return `(i.space = ${personal} OR (NOT i.personal AND EXISTS (
    SELECT 1 FROM store_namespaces s WHERE s.space = i.space AND (s.owner = ${p.add(access.user)} OR ${granted}))))`;
}

/** Items under a namespace prefix (labels joined): the prefix itself or anything below it. */
const under = (p: Params, prefix: readonly string[]) => {
  const joined = p.add(joinNamespace(prefix));
  return `(i.namespace = ${joined} OR left(i.namespace, length(${joined}) + 1) = ${joined} || chr(31))`;
};

/** Long-term memories and Store API items on Postgres; every read filters on the principal's access inside the SQL. */
export function postgresMemoryStore(pool: PostgresPool): MemoryStore {
  return {
    addMemory: (memory) => pool.transaction('save a memory', (c) => addMemory(c, memory)),
    searchMemories: (user, query, limit) =>
      pool.withClient('search memories', async (c) => {
        const picked = pickMemories(await indexedOf(c, user, MAX_SEARCH_CANDIDATES, true), query, limit);
        const rows = await c.query<Row>(
          `SELECT ${COLUMNS} FROM store_items i WHERE i.space = $1 AND i.id = ANY($2::text[])`,
          [personalSpaceId(user), picked.map((pick) => pick.id)],
        );
        return assemble(picked, rows.rows.map(toRow), memoryHit(user));
      }),
    listMemories: (user) =>
      pool.withClient('list memories', async (c) =>
        (await indexedOf(c, user, undefined, false))
          .reverse()
          .map((row) => memoryOf(row as ItemRow & { text: string }, user)),
      ),
    deleteMemory: (user, id) =>
      pool.withClient(
        'delete a memory',
        async (c) =>
          ((
            await c.query('DELETE FROM store_items WHERE space = $1 AND id = $2 AND text IS NOT NULL', [
              personalSpaceId(user),
              id,
            ])
          ).rowCount ?? 0) > 0,
      ),

    async putItem(principal, item) {
      const value = validateItemWrite(item);
      return pool.transaction('put a store item', (c) => putItem(c, principal, item, value));
    },
    async getItem(principal, namespace, key, options) {
      checkNamespace(namespace);
      return pool.withClient('read a store item', (c) => getItem(c, principal, namespace, key, options?.refreshTtl));
    },
    async deleteItem(principal, namespace, key) {
      checkNamespace(namespace);
      return pool.withClient('delete a store item', (c) => deleteItem(c, principal, namespace, key));
    },
    async searchItems(principal, search) {
      checkSearch(search);
      return pool.withClient('search store items', (c) => searchItems(c, principal, search));
    },
    async listNamespaces(principal, listing) {
      checkListing(listing);
      return pool.withClient('list store namespaces', (c) => listNamespaces(c, principal, listing));
    },
    async getNamespaceAcl(principal, root) {
      checkSharedRoot(root);
      return pool.withClient('read a namespace ACL', (c) => readAcl(c, principal, root));
    },
    async setNamespaceAcl(principal, root, acl) {
      checkSharedRoot(root);
      const entries = normalizeNamespaceAcl(acl);
      return pool.transaction('change a namespace ACL', (c) => setAcl(c, principal, root, entries));
    },
    sweepExpiredItems: (limit) =>
      limit <= 0
        ? Promise.resolve(0)
        : pool.withClient(
            'sweep expired store items',
            async (c) =>
              (
                await c.query(
                  `DELETE FROM store_items WHERE pk IN (SELECT pk FROM store_items
                   WHERE expires_at IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2)`,
                  [new Date(), Math.floor(limit)],
                )
              ).rowCount ?? 0,
          ),
  };
}

/** The indexed, unexpired items of the user's own namespace, newest first (at most `limit`). */
async function indexedOf(c: PoolClient, user: string, limit: number | undefined, light: boolean): Promise<ItemRow[]> {
  const p = new Params();
  const sql = `SELECT ${light ? candidateColumns(false) : COLUMNS} FROM store_items i WHERE i.space = ${p.add(personalSpaceId(user))}
    AND i.text IS NOT NULL AND ${live(p, new Date())} ORDER BY i.pk DESC${limit === undefined ? '' : ` LIMIT ${p.add(limit)}`}`;
  return (await c.query<Row>(sql, p.values)).rows.map(toRow);
}

/** Inserts unless the user has a memory with the same idempotency key; a concurrent twin insert loses to the unique key. */
async function addMemory(c: PoolClient, memory: MemoryWrite): Promise<{ memory: MemoryRecord; created: boolean }> {
  validateMemory(memory);
  const space = personalSpaceId(memory.user);
  const id = randomUUID();
  const text = memory.text.trim();
  const namespace = memoriesNamespace(memory.user);
  const inserted = await c.query<Row>(
    `INSERT INTO store_items AS i (id, space, personal, namespace, key, value, text, vector, idempotency_key, created_at, updated_at, terms)
     VALUES ($1, $2, true, $3, $1, $4, $5, $6, $7, $8, $8, $9)
     ON CONFLICT (space, idempotency_key) DO NOTHING RETURNING ${COLUMNS}`,
    [
      id,
      space,
      joinNamespace(namespace),
      JSON.stringify(memoryValue(text, memory.source)),
      text,
      pgvector.toSql(Array.from(memory.vector)),
      memory.idempotencyKey ?? null,
      new Date(),
      indexTermsOf(text),
    ],
  );
  const created = inserted.rows[0];
  if (created) return { memory: memoryOf(toRow(created) as ItemRow & { text: string }, memory.user), created: true };
  const existing = await c.query<Row>(
    `SELECT ${COLUMNS} FROM store_items i WHERE i.space = $1 AND i.idempotency_key = $2`,
    [space, memory.idempotencyKey],
  );
  return {
    memory: memoryOf(toRow(existing.rows[0] as Row) as ItemRow & { text: string }, memory.user),
    created: false,
  };
}

/** Checks the right to write the item's namespace (creating a new shared one, owned by the writer), then upserts. */
async function putItem(
  c: PoolClient,
  principal: Principal,
  item: ItemWrite,
  value: string,
): Promise<{ created: boolean }> {
  const space = spaceOf(item.namespace);
  const access = itemAccessOf(principal);
  const now = new Date();
  if (space.kind === 'personal') {
    if (space.id !== access.personal) throw new NamespaceForbiddenError(item.namespace, principal.id);
  } else {
    await c.query(
      `INSERT INTO store_namespaces (space, owner, created_at, updated_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (space) DO NOTHING`,
      [space.id, principal.id, now],
    );
    // Locked until the item is written: an ACL change cannot slip between the check and the write.
    const row = (await c.query<NamespaceRow>('SELECT * FROM store_namespaces WHERE space = $1 FOR SHARE', [space.id]))
      .rows[0] as NamespaceRow;
    if (!mayWrite(access, row)) throw new NamespaceForbiddenError(item.namespace, principal.id);
  }
  const namespace = joinNamespace(item.namespace);
  // An expired item under the same key is gone: the put creates a new one.
  await c.query('DELETE FROM store_items WHERE namespace = $1 AND key = $2 AND expires_at <= $3', [
    namespace,
    item.key,
    now,
  ]);
  const result = await c.query<{ created: boolean }>(
    `INSERT INTO store_items (id, space, personal, namespace, key, value, text, vector, ttl_minutes, expires_at, created_at, updated_at, terms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12)
     ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, text = excluded.text, terms = excluded.terms, vector = excluded.vector,
       ttl_minutes = excluded.ttl_minutes, expires_at = excluded.expires_at, updated_at = excluded.updated_at
     RETURNING (xmax = 0) AS created`,
    [
      randomUUID(),
      space.id,
      space.kind === 'personal',
      namespace,
      item.key,
      value,
      item.text ?? null,
      item.vector ? pgvector.toSql(Array.from(item.vector)) : null,
      item.ttlMinutes ?? null,
      expiryOf(now, item.ttlMinutes),
      now,
      item.text === undefined ? null : indexTermsOf(item.text),
    ],
  );
  return { created: result.rows[0]?.created === true };
}

async function refresh(c: PoolClient, ids: readonly string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await c.query(
    `UPDATE store_items SET expires_at = $1::timestamptz + ttl_minutes * interval '1 minute'
     WHERE ttl_minutes IS NOT NULL AND id = ANY($2::text[])`,
    [now, [...ids]],
  );
}

async function getItem(
  c: PoolClient,
  principal: Principal,
  namespace: readonly string[],
  key: string,
  refreshTtl: boolean | undefined,
): Promise<StoreItem | undefined> {
  const access = itemAccessOf(principal);
  const now = new Date();
  const p = new Params();
  const sql = `SELECT ${COLUMNS}, i.ttl_minutes FROM store_items i
    WHERE i.namespace = ${p.add(joinNamespace(namespace))} AND i.key = ${p.add(key)} AND ${live(p, now)}
      AND ${accessCondition(p, access, false)}`;
  const row = (await c.query<Row & { ttl_minutes: number | null }>(sql, p.values)).rows[0];
  if (!row) return undefined;
  if (refreshTtl && row.ttl_minutes !== null) await refresh(c, [row.id], now);
  return toStoreItem(toRow(row));
}

async function deleteItem(
  c: PoolClient,
  principal: Principal,
  namespace: readonly string[],
  key: string,
): Promise<ItemDeleteOutcome> {
  const access = itemAccessOf(principal);
  const d = new Params();
  const target = (p: Params) => `i.namespace = ${p.add(joinNamespace(namespace))} AND i.key = ${p.add(key)}`;
  const deleted = await c.query(
    `DELETE FROM store_items i WHERE ${target(d)} AND ${live(d, new Date())} AND ${accessCondition(d, access, true)}`,
    d.values,
  );
  if ((deleted.rowCount ?? 0) > 0) return 'deleted';
  const s = new Params();
  const visible = await c.query(
    `SELECT 1 FROM store_items i WHERE ${target(s)} AND ${live(s, new Date())} AND ${accessCondition(s, access, false)}`,
    s.values,
  );
  return visible.rows.length > 0 ? 'read_only' : 'absent';
}

async function searchItems(c: PoolClient, principal: Principal, search: ItemSearch) {
  const access = itemAccessOf(principal);
  const now = new Date();
  const head = literalHead(search.namespacePrefix);
  const inSql = pagesInSql(search);
  // The candidates, then the page read whole under the same access rule (an ACL changed meanwhile applies).
  const visible = (p: Params) => `${live(p, now)} AND ${accessCondition(p, access, false)}`;
  const p = new Params();
  const sql = `SELECT ${inSql ? COLUMNS : candidateColumns(search.filter !== undefined)} FROM store_items i
    WHERE ${visible(p)}${head.length > 0 ? ` AND ${under(p, head)}` : ''}
      ${search.query ? 'AND i.text IS NOT NULL' : ''}
    ORDER BY i.updated_at DESC, i.pk DESC
    LIMIT ${p.add(inSql ? search.limit : MAX_SEARCH_CANDIDATES)} OFFSET ${p.add(inSql ? search.offset : 0)}`;
  const rows = (await c.query<Row>(sql, p.values)).rows.map(toRow);
  let page: ItemRow[];
  let picked: Picked[];
  if (inSql) {
    page = rows;
    picked = page.map((row) => ({ id: row.id }));
  } else {
    picked = pickSearch(rows, search);
    const q = new Params();
    const byIds = `SELECT ${COLUMNS} FROM store_items i WHERE ${visible(q)} AND i.id = ANY(${q.add(picked.map((pick) => pick.id))}::text[])`;
    page = (await c.query<Row>(byIds, q.values)).rows.map(toRow);
  }
  const hits = assemble(picked, page, searchHit);
  if (search.refreshTtl)
    await refresh(
      c,
      picked.map((pick) => pick.id),
      now,
    );
  return hits;
}

async function listNamespaces(c: PoolClient, principal: Principal, listing: NamespaceListing): Promise<string[][]> {
  const access = itemAccessOf(principal);
  const head = literalHead(listing.prefix ?? []);
  const p = new Params();
  const sql = `SELECT DISTINCT i.namespace COLLATE "C" AS namespace FROM store_items i
    WHERE ${live(p, new Date())} AND ${accessCondition(p, access, false)}${head.length > 0 ? ` AND ${under(p, head)}` : ''}
    ORDER BY 1 LIMIT ${MAX_LISTED_NAMESPACES}`;
  const rows = (await c.query<{ namespace: string }>(sql, p.values)).rows;
  return pageNamespaces(
    rows.map((row) => splitNamespace(row.namespace)),
    listing,
  );
}
