import type { PoolClient } from 'pg';
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
import type { PostgresPool } from './pool.ts';

interface VersionRow {
  assistant_id: string;
  version: number;
  graph_id: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  acl: string[];
  created_at: Date;
}

interface AssistantRow extends Omit<VersionRow, 'created_at'> {
  owner: string;
  version_created_at: Date;
  created_at: Date;
  updated_at: Date;
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
  config: row.config,
  context: row.context,
  metadata: row.metadata,
  acl: row.acl,
  createdAt: row.created_at.toISOString(),
});

const toAssistant = (row: AssistantRow): AssistantRecord => ({
  ...toVersion({ ...row, created_at: row.version_created_at }),
  owner: row.owner,
  assistantCreatedAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const writeValues = (write: AssistantWrite) => [
  write.graphId,
  write.name,
  write.description,
  JSON.stringify(write.config),
  JSON.stringify(write.context),
  JSON.stringify(write.metadata),
  write.acl,
];

/** Conditions and their parameters, numbered after `params` already holds. */
class Sql {
  readonly params: unknown[] = [];
  bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

function readable(reader: AssistantReader, sql: Sql): string {
  if (reader.keys === undefined) return 'true';
  return `(a.owner = ${sql.bind(reader.user)} OR a.acl && ${sql.bind([...reader.keys, 'public'])}::text[])`;
}

const metadataConditions = (column: string, metadata: AssistantFilter['metadata'], sql: Sql): string[] =>
  assistantMetadataFilter(metadata).map(
    ([key, value]) => `${column} -> ${sql.bind(key)} = ${sql.bind(JSON.stringify(value))}::jsonb`,
  );

function filterSql(reader: AssistantReader, filter: AssistantFilter, sql: Sql): string {
  const conditions = [readable(reader, sql)];
  if (filter.graphId !== undefined) conditions.push(`a.graph_id = ${sql.bind(filter.graphId)}`);
  if (filter.name !== undefined) conditions.push(`a.name = ${sql.bind(filter.name)}`);
  conditions.push(...metadataConditions('a.metadata', filter.metadata, sql));
  return conditions.join(' AND ');
}

async function get(c: PoolClient, assistantId: string, lock = false): Promise<AssistantRecord | undefined> {
  const { rows } = await c.query<AssistantRow>(
    `SELECT ${ASSISTANT_COLUMNS} FROM assistants a WHERE a.assistant_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [assistantId],
  );
  return rows[0] ? toAssistant(rows[0]) : undefined;
}

/** Copies a version's fields into the assistant's row: it becomes the latest. */
const makeLatest = (c: PoolClient, assistantId: string, version: number) =>
  c.query(
    `UPDATE assistants a SET version = v.version, graph_id = v.graph_id, name = v.name, description = v.description,
       config = v.config, context = v.context, metadata = v.metadata, acl = v.acl, version_created_at = v.created_at,
       updated_at = now()
     FROM assistant_versions v WHERE a.assistant_id = $1 AND v.assistant_id = $1 AND v.version = $2`,
    [assistantId, version],
  );

/** Stored assistants on PostgreSQL: version writes lock the assistant's row, so concurrent updates number in turn. */
export function postgresAssistantStore(pool: PostgresPool): AssistantStore {
  return {
    createAssistant: (input) =>
      pool.transaction('create an assistant', async (c) => {
        const inserted = await c.query(
          `INSERT INTO assistants (assistant_id, owner, version, ${FIELDS}, version_created_at, created_at, updated_at)
           VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $8, $9, now(), now(), now()) ON CONFLICT (assistant_id) DO NOTHING`,
          [input.assistantId, input.owner, ...writeValues(input)],
        );
        if (inserted.rowCount === 0) return undefined;
        await c.query(
          `INSERT INTO assistant_versions (assistant_id, version, ${FIELDS}, created_at)
           SELECT assistant_id, 1, ${FIELDS}, version_created_at FROM assistants WHERE assistant_id = $1`,
          [input.assistantId],
        );
        return get(c, input.assistantId);
      }),
    getAssistant: (assistantId) => pool.withClient('read an assistant', (c) => get(c, assistantId)),
    getAssistantVersion: (assistantId, version) =>
      pool.withClient('read an assistant version', async (c) => {
        const { rows } = await c.query<VersionRow>(
          `SELECT assistant_id, version, ${FIELDS}, created_at FROM assistant_versions WHERE assistant_id = $1 AND version = $2`,
          [assistantId, version],
        );
        return rows[0] ? toVersion(rows[0]) : undefined;
      }),
    addAssistantVersion: (assistantId, write) =>
      pool.transaction('update an assistant', async (c) => {
        if (!(await get(c, assistantId, true))) return undefined;
        const { rows } = await c.query<{ top: number }>(
          'SELECT max(version) AS top FROM assistant_versions WHERE assistant_id = $1',
          [assistantId],
        );
        const version = (rows[0]?.top ?? 0) + 1;
        await c.query(
          `INSERT INTO assistant_versions (assistant_id, version, ${FIELDS}, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())`,
          [assistantId, version, ...writeValues(write)],
        );
        await makeLatest(c, assistantId, version);
        await c.query(
          `DELETE FROM assistant_versions WHERE assistant_id = $1 AND version NOT IN
             (SELECT version FROM assistant_versions WHERE assistant_id = $1 ORDER BY version DESC LIMIT $2)`,
          [assistantId, MAX_ASSISTANT_VERSIONS],
        );
        return get(c, assistantId);
      }),
    setLatestAssistantVersion: (assistantId, version) =>
      pool.transaction('set the latest assistant version', async (c) => {
        if (!(await get(c, assistantId, true))) return undefined;
        const updated = await makeLatest(c, assistantId, version);
        return updated.rowCount === 0 ? undefined : get(c, assistantId);
      }),
    listAssistantVersions: (assistantId, query) =>
      pool.withClient('list assistant versions', async (c) => {
        const { limit, offset } = assistantPage(query);
        const sql = new Sql();
        const conditions = [
          `v.assistant_id = ${sql.bind(assistantId)}`,
          ...metadataConditions('v.metadata', query.metadata, sql),
        ];
        const { rows } = await c.query<VersionRow>(
          `SELECT v.assistant_id, v.version, v.graph_id, v.name, v.description, v.config, v.context, v.metadata, v.acl, v.created_at
           FROM assistant_versions v WHERE ${conditions.join(' AND ')}
           ORDER BY v.version DESC LIMIT ${sql.bind(limit)} OFFSET ${sql.bind(offset)}`,
          sql.params,
        );
        return rows.map(toVersion);
      }),
    searchAssistants: (reader, query) =>
      pool.withClient('search assistants', async (c) => {
        const { limit, offset } = assistantPage(query);
        const sql = new Sql();
        const where = filterSql(reader, query, sql);
        const { rows } = await c.query<AssistantRow>(
          `SELECT ${ASSISTANT_COLUMNS} FROM assistants a WHERE ${where}
           ORDER BY ${assistantOrder(query)} LIMIT ${sql.bind(limit)} OFFSET ${sql.bind(offset)}`,
          sql.params,
        );
        return rows.map(toAssistant);
      }),
    countAssistants: (reader, filter) =>
      pool.withClient('count assistants', async (c) => {
        const sql = new Sql();
        const { rows } = await c.query<{ n: string }>(
          `SELECT count(*) AS n FROM assistants a WHERE ${filterSql(reader, filter, sql)}`,
          sql.params,
        );
        return Number(rows[0]?.n ?? 0);
      }),
    countOwnedAssistants: (owner) =>
      pool.withClient('count assistants', async (c) => {
        const { rows } = await c.query<{ n: string }>('SELECT count(*) AS n FROM assistants WHERE owner = $1', [owner]);
        return Number(rows[0]?.n ?? 0);
      }),
    deleteAssistant: (assistantId) =>
      pool.transaction('delete an assistant', async (c) => {
        const deleted = await c.query('DELETE FROM assistants WHERE assistant_id = $1', [assistantId]);
        return (deleted.rowCount ?? 0) > 0;
      }),
  };
}
