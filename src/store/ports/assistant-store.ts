/**
 * One version of an assistant: an agent (`graphId`) with its configuration, as written by one create or update.
 * Versions are complete snapshots (LangGraph's semantics): an update writes every field, taking what it does not
 * name from the version it replaces.
 */
export interface AssistantVersionRecord {
  assistantId: string;
  version: number;
  graphId: string;
  name: string;
  description: string | null;
  /** LangGraph's `config` (`configurable`, `tags`), as validated by the assistant service. */
  config: Record<string, unknown>;
  /** LangGraph's `context`: the same settings as `config.configurable`, the newer way to send them. */
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** Who may read and run it besides its owner: `user:<id>`, `group:<name>`, or `public`; empty: the owner alone. */
  acl: string[];
  createdAt: string;
}

/** An assistant as it is now: its latest version (the one runs use by default), owner and dates. */
export interface AssistantRecord extends AssistantVersionRecord {
  owner: string;
  /** When the assistant (its version 1) was created; `createdAt` of the version is the version's. */
  assistantCreatedAt: string;
  updatedAt: string;
}

/** What one create or update writes: a whole version. */
export interface AssistantWrite {
  graphId: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  acl: string[];
}

export const ASSISTANT_SORT_FIELDS = ['assistant_id', 'graph_id', 'name', 'created_at', 'updated_at'] as const;
export type AssistantSortField = (typeof ASSISTANT_SORT_FIELDS)[number];

/** Who reads: their id, and the ACL keys they match (`undefined` for an admin, who reads every assistant). */
export interface AssistantReader {
  user: string;
  keys: readonly string[] | undefined;
}

/** A search's filters; metadata entries match exactly one top-level key to one scalar JSON value each. */
export interface AssistantFilter {
  graphId?: string;
  /** Exact name. */
  name?: string;
  metadata?: readonly (readonly [string, string | number | boolean])[];
}

export interface AssistantQuery extends AssistantFilter {
  limit: number;
  offset: number;
  sortBy?: AssistantSortField;
  sortOrder?: 'asc' | 'desc';
}

/** The largest page a search or a version listing returns. */
export const MAX_ASSISTANT_PAGE = 1000;
/** Versions kept per assistant: beyond this, an update drops the oldest version that is not the latest. */
export const MAX_ASSISTANT_VERSIONS = 100;

/**
 * Stored assistants and their versions. The store applies the read rule inside the search and count queries
 * (owner, ACL entries, `public`; admins read all), before the limit, so counts reveal nothing; single reads return
 * the record and the caller applies the same rule (`mayReadAssistant`).
 */
export interface AssistantStore {
  /** Creates version 1; undefined when the id is taken (by anyone). */
  createAssistant(input: AssistantWrite & { assistantId: string; owner: string }): Promise<AssistantRecord | undefined>;
  getAssistant(assistantId: string): Promise<AssistantRecord | undefined>;
  getAssistantVersion(assistantId: string, version: number): Promise<AssistantVersionRecord | undefined>;
  /**
   * Writes the next version (the highest so far + 1) and makes it the latest, in one transaction; drops the oldest
   * versions beyond `MAX_ASSISTANT_VERSIONS`. Undefined when the assistant does not exist.
   */
  addAssistantVersion(assistantId: string, write: AssistantWrite): Promise<AssistantRecord | undefined>;
  /** Makes a kept version the latest. Undefined when the assistant or the version does not exist. */
  setLatestAssistantVersion(assistantId: string, version: number): Promise<AssistantRecord | undefined>;
  /** The assistant's kept versions, newest first, filtered on metadata like a search. */
  listAssistantVersions(
    assistantId: string,
    query: { limit: number; offset: number; metadata?: AssistantFilter['metadata'] },
  ): Promise<AssistantVersionRecord[]>;
  /** The assistants the reader may read that match the filters, one page (default order: created_at desc). */
  searchAssistants(reader: AssistantReader, query: AssistantQuery): Promise<AssistantRecord[]>;
  countAssistants(reader: AssistantReader, filter: AssistantFilter): Promise<number>;
  /** How many assistants a user owns (the per-user bound). */
  countOwnedAssistants(owner: string): Promise<number>;
  /** Deletes the assistant and every version. False when there was none. */
  deleteAssistant(assistantId: string): Promise<boolean>;
}

/** The one read rule, applied in code to a single record (the searches apply it in SQL). */
export function mayReadAssistant(assistant: Pick<AssistantRecord, 'owner' | 'acl'>, reader: AssistantReader): boolean {
  if (reader.keys === undefined || assistant.owner === reader.user) return true;
  return assistant.acl.includes('public') || assistant.acl.some((entry) => reader.keys?.includes(entry));
}
