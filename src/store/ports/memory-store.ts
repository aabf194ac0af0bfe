import type { Principal } from '../../domain/principal.ts';

/**
 * A fact a user asked Evident to remember. A memory is an item of the user's own namespace (`["users", <user>, …]`,
 * see `item-rules.ts`) that carries searchable text: the agents save theirs in `["users", <user>, "memories"]`, and an
 * item put there (or anywhere under the user's namespace) through the Store API is recalled the same way.
 */
export interface MemoryRecord {
  /** The item's stable id (unique across the store). */
  id: string;
  user: string;
  text: string;
  /** Where it came from (e.g. `thread:<id>`), for the user's own review. */
  source?: string;
  createdAt: string;
  /** The item the memory is: its namespace (under `["users", <user>]`) and key. */
  namespace: string[];
  key: string;
}

export interface MemoryHit extends MemoryRecord {
  /** Relevance in 0..1: the larger of the vector's cosine similarity and the query's keyword coverage (`item-ranking.ts`). */
  score: number;
}

export interface MemoryWrite {
  user: string;
  text: string;
  vector: Float32Array;
  source?: string;
  /**
   * Makes the write happen at most once per (user, key): a second write with the same key returns the first
   * memory with `created: false`. The agent passes run id + tool call id, so a replayed approval cannot save twice.
   */
  idempotencyKey?: string;
}

/** What a memory recall or an item search ranks by: the query's text (keyword channel) and its vector (vector channel). */
export interface MemoryQuery {
  text: string;
  vector: Float32Array;
}

/** One item of the Store API: a JSON object under a namespace and a key. */
export interface StoreItem {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface StoreItemHit extends StoreItem {
  /** Relevance in 0..1 when the search had a query. */
  score?: number;
}

/** An item to put; `text` and `vector` are its search index (absent: not indexed, `index: false`). */
export interface ItemWrite {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  text?: string;
  vector?: Float32Array;
  /** Minutes until the item expires (none: it never does). */
  ttlMinutes?: number;
}

export interface ItemSearch {
  /** Labels every returned item's namespace starts with (`*` matches any one label); empty: every readable item. */
  namespacePrefix: string[];
  /** Top-level value fields: `{field: value}` (equal) or `{field: {$eq|$ne|$gt|$gte|$lt|$lte: value}}`. */
  filter?: Record<string, unknown>;
  limit: number;
  offset: number;
  /** Ranks indexed items by relevance (keyword + vector); without it, the most recently updated come first. */
  query?: { text: string; vector?: Float32Array };
  /** Restarts the TTL of the items returned. */
  refreshTtl?: boolean;
}

export interface NamespaceListing {
  prefix?: string[];
  suffix?: string[];
  maxDepth?: number;
  limit: number;
  offset: number;
}

/**
 * The ACL of a shared namespace (every namespace whose first label is not `users`): its owner (who created it) and the
 * entries (`user:bob`, `group:legal`) that may read it and that may write it. Writers read too; the owner and admins
 * may do all, and only they change the ACL. A user's own namespace has no ACL: it is theirs alone.
 */
export interface NamespaceAcl {
  /** The namespace's first label: the ACL covers every namespace under it. */
  root: string;
  owner: string;
  read: string[];
  write: string[];
  createdAt: string;
  updatedAt: string;
}

/** What became of a delete: done, refused (the caller may read the item but not write it), or nothing visible there. */
export type ItemDeleteOutcome = 'deleted' | 'read_only' | 'absent';

/**
 * Long-term memory and the Store API's items: one table. Every call is scoped inside the query to what the principal
 * may read or write (their own namespace, shared namespaces their ACL entries name), checked at the moment of use;
 * expired items are never returned. Another user's memory or item is indistinguishable from an absent one.
 */
export interface MemoryStore {
  addMemory(memory: MemoryWrite): Promise<{ memory: MemoryRecord; created: boolean }>;
  /** The user's indexed items nearest to the query, best first (see `item-ranking.ts`); at most `limit`. */
  searchMemories(user: string, query: MemoryQuery, limit: number): Promise<MemoryHit[]>;
  /** The user's memories (indexed items of their own namespace), oldest first. */
  listMemories(user: string): Promise<MemoryRecord[]>;
  /** Deletes one of the user's memories by id. False when the user has no memory with that id (whoever else may). */
  deleteMemory(user: string, id: string): Promise<boolean>;

  /** Creates or replaces an item; throws NamespaceForbiddenError when the principal may not write the namespace. */
  putItem(principal: Principal, item: ItemWrite): Promise<{ created: boolean }>;
  /** The item, or undefined when it is absent, expired or not readable by the principal (one answer for all three). */
  getItem(
    principal: Principal,
    namespace: readonly string[],
    key: string,
    options?: { refreshTtl?: boolean },
  ): Promise<StoreItem | undefined>;
  deleteItem(principal: Principal, namespace: readonly string[], key: string): Promise<ItemDeleteOutcome>;
  searchItems(principal: Principal, search: ItemSearch): Promise<StoreItemHit[]>;
  /** The distinct namespaces of the items the principal may read, sorted, truncated to `maxDepth` labels. */
  listNamespaces(principal: Principal, listing: NamespaceListing): Promise<string[][]>;
  /** A shared namespace's ACL, or undefined when it does not exist or the principal may not read it. */
  getNamespaceAcl(principal: Principal, root: string): Promise<NamespaceAcl | undefined>;
  /** Creates the shared namespace (the principal owns it) or changes its ACL (owner or admin only). */
  setNamespaceAcl(principal: Principal, root: string, acl: { read: string[]; write: string[] }): Promise<NamespaceAcl>;
  /** Deletes up to `limit` expired items; how many it deleted. */
  sweepExpiredItems(limit: number): Promise<number>;
}
