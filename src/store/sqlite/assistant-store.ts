import type Database from 'better-sqlite3';
import { assistantMetadataFilter, assistantOrder, assistantPage } from '../assistant-rules.ts';
import {
  MAX_ASSISTANT_VERSIONS,
  type AssistantFilter,
  type AssistantReader,
  type AssistantRecord,
  type AssistantStore,
  type AssistantVersionRecord,
  type AssistantWrite,
} from '../ports/assistant-store.ts';
import type { SqliteConnection } from './connection.ts';

type Stmt = (sql: string) => Database.Statement;

interface VersionRow {
  assistant_id: string;
  version: number;
  graph_id: string;
  name: string;
  description: string | null;
  config: string;
  context: string;
  metadata: string;
  acl: string;
  created_at: string;
}

interface AssistantRow extends Omit<VersionRow, 'created_at'> {
  owner: string;
  version_created_at: string;
  created_at: string;
  updated_at: string;
}

const FIELDS = 'graph_id, name, description, config, context, metadata, acl';
const ASSISTANT_COLUMNS =
  'a.assistant_id, a.owner, a.version, a.graph_id, a.name, a.description, a.config, a.context, a.metadata, a.acl, a.version_created_at, a.created_at, a.updated_at';

const toVersion = (row: VersionRow): AssistantVersionRecord => ({
  assistantId: row.assistant_id,
  version: row.version,
  graphId: row.graph_id,
  name: row.name,
  description: row.description,
  config: JSON.parse(row.config) as Record<string, unknown>,
  context: JSON.parse(row.context) as Record<string, unknown>,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  acl: JSON.parse(row.acl) as string[],
  createdAt: row.created_at,
});

const toAssistant = (row: AssistantRow): AssistantRecord => ({
  ...toVersion({ ...row, created_at: row.version_created_at }),
  owner: row.owner,
  assistantCreatedAt: row.created_at,
  updatedAt: row.updated_at,
});

const writeParams = (write: AssistantWrite) => ({
  graph_id: write.graphId,
  name: write.name,
  description: write.description,
  config: JSON.stringify(write.config),
  context: JSON.stringify(write.context),
  metadata: JSON.stringify(write.metadata),
  acl: JSON.stringify(write.acl),
});

/** The read rule inside the query: the owner, an ACL entry among the reader's keys, or `public`; nothing for an admin. */
function readable(reader: AssistantReader, params: Record<string, unknown>): string {
  if (reader.keys === undefined) return '1';
  params.reader = reader.user;
  params.keys = JSON.stringify([...reader.keys, 'public']);
  return `(a.owner = @reader OR EXISTS (SELECT 1 FROM json_each(a.acl) e WHERE e.value IN (SELECT value FROM json_each(@keys))))`;
}

/** Metadata entries as conditions on one top-level key each: same JSON type, same value. */
function metadataConditions(
  column: string,
  metadata: AssistantFilter['metadata'],
  params: Record<string, unknown>,
): string[] {
  return assistantMetadataFilter(metadata).map(([key, value], index) => {
    params[`mk${index}`] = key;
    const type =
      typeof value === 'string'
        ? 'text'
        : typeof value === 'boolean'
          ? String(value)
          : Number.isInteger(value)
            ? 'integer'
            : 'real';
    params[`mt${index}`] = type;
    params[`mv${index}`] = typeof value === 'boolean' ? null : value;
    return `EXISTS (SELECT 1 FROM json_each(${column}) m WHERE m.key = @mk${index} AND m.type = @mt${index}
            AND (@mv${index} IS NULL OR m.atom = @mv${index}))`;
  });
}

function filterSql(reader: AssistantReader, filter: AssistantFilter, params: Record<string, unknown>): string {
  const conditions = [readable(reader, params)];
  if (filter.graphId !== undefined) {
    params.graph_id = filter.graphId;
    conditions.push('a.graph_id = @graph_id');
  }
  if (filter.name !== undefined) {
    params.name = filter.name;
    conditions.push('a.name = @name');
  }
  conditions.push(...metadataConditions('a.metadata', filter.metadata, params));
  return conditions.join(' AND ');
}

/** Stored assistants on SQLite: writes in IMMEDIATE transactions, so version numbers never collide. */
export function sqliteAssistantStore(conn: SqliteConnection): AssistantStore {
  const stmt: Stmt = (sql) => conn.stmt(sql);
  const get = (assistantId: string): AssistantRecord | undefined => {
    const row = stmt(`SELECT ${ASSISTANT_COLUMNS} FROM assistants a WHERE a.assistant_id = ?`).get(assistantId) as
      | AssistantRow
      | undefined;
    return row ? toAssistant(row) : undefined;
  };
  /** Copies a version's fields into the assistant's row: it becomes the latest. */
  const makeLatest = (assistantId: string, version: number, now: string) =>
    stmt(
      `UPDATE assistants SET (version, ${FIELDS}, version_created_at, updated_at) =
         (SELECT version, ${FIELDS}, created_at, @now FROM assistant_versions WHERE assistant_id = @id AND version = @version)
       WHERE assistant_id = @id`,
    ).run({ id: assistantId, version, now });
  const insertVersion = (assistantId: string, version: number, write: AssistantWrite, now: string) =>
    stmt(
      `INSERT INTO assistant_versions (assistant_id, version, ${FIELDS}, created_at)
       VALUES (@id, @version, @graph_id, @name, @description, @config, @context, @metadata, @acl, @now)`,
    ).run({ id: assistantId, version, now, ...writeParams(write) });

  return {
    async createAssistant(input) {
      conn.assertWritable();
      return conn.guard('create an assistant', () =>
        conn.immediate(() => {
          if (stmt('SELECT 1 FROM assistants WHERE assistant_id = ?').get(input.assistantId)) return undefined;
          const now = new Date().toISOString();
          stmt(
            `INSERT INTO assistants (assistant_id, owner, version, ${FIELDS}, version_created_at, created_at, updated_at)
             VALUES (@id, @owner, 1, @graph_id, @name, @description, @config, @context, @metadata, @acl, @now, @now, @now)`,
          ).run({ id: input.assistantId, owner: input.owner, now, ...writeParams(input) });
          insertVersion(input.assistantId, 1, input, now);
          return get(input.assistantId);
        }),
      );
    },
    async getAssistant(assistantId) {
      return conn.guard('read an assistant', () => get(assistantId));
    },
    async getAssistantVersion(assistantId, version) {
      return conn.guard('read an assistant version', () => {
        const row = stmt(
          `SELECT assistant_id, version, ${FIELDS}, created_at FROM assistant_versions WHERE assistant_id = ? AND version = ?`,
        ).get(assistantId, version) as VersionRow | undefined;
        return row ? toVersion(row) : undefined;
      });
    },
    async addAssistantVersion(assistantId, write) {
      conn.assertWritable();
      return conn.guard('update an assistant', () =>
        conn.immediate(() => {
          const current = get(assistantId);
          if (!current) return undefined;
          const { top } = stmt('SELECT max(version) AS top FROM assistant_versions WHERE assistant_id = ?').get(
            assistantId,
          ) as { top: number };
          const version = top + 1;
          const now = new Date().toISOString();
          insertVersion(assistantId, version, write, now);
          makeLatest(assistantId, version, now);
          // The bound on kept versions: the oldest go first; the latest is the newest, so it always stays.
          stmt(
            `DELETE FROM assistant_versions WHERE assistant_id = @id AND version NOT IN
               (SELECT version FROM assistant_versions WHERE assistant_id = @id ORDER BY version DESC LIMIT @keep)`,
          ).run({ id: assistantId, keep: MAX_ASSISTANT_VERSIONS });
          return get(assistantId);
        }),
      );
    },
    async setLatestAssistantVersion(assistantId, version) {
      conn.assertWritable();
      return conn.guard('set the latest assistant version', () =>
        conn.immediate(() => {
          const kept = stmt('SELECT 1 FROM assistant_versions WHERE assistant_id = ? AND version = ?').get(
            assistantId,
            version,
          );
          if (!kept) return undefined;
          makeLatest(assistantId, version, new Date().toISOString());
          return get(assistantId);
        }),
      );
    },
    async listAssistantVersions(assistantId, query) {
      return conn.guard('list assistant versions', () => {
        const { limit, offset } = assistantPage(query);
        const params: Record<string, unknown> = { id: assistantId, limit, offset };
        const conditions = ['v.assistant_id = @id', ...metadataConditions('v.metadata', query.metadata, params)];
        const rows = conn.db
          .prepare(
            `SELECT v.assistant_id, v.version, ${FIELDS.split(', ')
              .map((field) => `v.${field}`)
              .join(', ')}, v.created_at
             FROM assistant_versions v WHERE ${conditions.join(' AND ')}
             ORDER BY v.version DESC LIMIT @limit OFFSET @offset`,
          )
          .all(params) as VersionRow[];
        return rows.map(toVersion);
      });
    },
    async searchAssistants(reader, query) {
      return conn.guard('search assistants', () => {
        const { limit, offset } = assistantPage(query);
        const params: Record<string, unknown> = { limit, offset };
        const rows = conn.db
          .prepare(
            `SELECT ${ASSISTANT_COLUMNS} FROM assistants a WHERE ${filterSql(reader, query, params)}
             ORDER BY ${assistantOrder(query)} LIMIT @limit OFFSET @offset`,
          )
          .all(params) as AssistantRow[];
        return rows.map(toAssistant);
      });
    },
    async countAssistants(reader, filter) {
      return conn.guard('count assistants', () => {
        const params: Record<string, unknown> = {};
        const row = conn.db
          .prepare(`SELECT count(*) AS n FROM assistants a WHERE ${filterSql(reader, filter, params)}`)
          .get(params) as { n: number };
        return row.n;
      });
    },
    async countOwnedAssistants(owner) {
      return conn.guard('count assistants', () => {
        const row = stmt('SELECT count(*) AS n FROM assistants WHERE owner = ?').get(owner) as { n: number };
        return row.n;
      });
    },
    async deleteAssistant(assistantId) {
      conn.assertWritable();
      return conn.guard('delete an assistant', () =>
        conn.immediate(() => {
          stmt('DELETE FROM assistant_versions WHERE assistant_id = ?').run(assistantId);
          return stmt('DELETE FROM assistants WHERE assistant_id = ?').run(assistantId).changes > 0;
        }),
      );
    },
  };
}
