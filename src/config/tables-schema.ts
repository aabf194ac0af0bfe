import { z } from 'zod';

const MiB = 1024 * 1024;

/**
 * The bounds of one read-only table query (`table_query`, the table answers of the agents). The store enforces
 * them inside its query runner: the SQLite child process stops producing and the parent stops reading at the byte
 * caps; PostgreSQL gets `statement_timeout` and a byte-capped fetch. The time limit covers the whole exchange
 * (query, serialisation, transfer).
 */
export const tablesSchema = z
  .object({
    maxRows: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(200)
      .describe('Rows returned; more are cut off and the result says `truncated`.'),
    timeoutMs: z
      .number()
      .int()
      .min(10)
      .max(600_000)
      .default(5_000)
      .describe(
        'Milliseconds from sending the query until its rows are read back; then it is stopped (`query_timeout`).',
      ),
    maxResultBytes: z
      .number()
      .int()
      .min(1024)
      .max(256 * MiB)
      .default(MiB)
      .describe(
        'Bytes of the whole result (column names and every value as UTF-8 / raw bytes); over it: `query_too_large`.',
      ),
    maxValueBytes: z
      .number()
      .int()
      .min(64)
      .max(256 * MiB)
      .default(256 * 1024)
      .describe('Bytes of any single value; over it: `query_too_large`.'),
    maxQueuedPerUser: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(32)
      .describe(
        "Table queries one principal may have waiting or running at once (queries are served one principal after another); past it a query is refused at once (`query_rejected`). Twice `runs.maxConcurrentPerUser`'s default: a user's runs never meet it, a request that sends hundreds does.",
      ),
    maxMemoryBytes: z
      .number()
      .int()
      .min(64 * MiB)
      .max(64 * 1024 * MiB)
      .default(512 * MiB)
      .describe(
        "Working memory of one query: the SQLite query process's data segment on Linux (its sorts and temporary tables are kept in memory), PostgreSQL's `temp_file_limit` where the store's role may set it.",
      ),
  })
  .strict()
  .prefault({})
  .refine((tables) => tables.maxValueBytes <= tables.maxResultBytes, {
    message: 'tables.maxValueBytes must not exceed tables.maxResultBytes',
  });

export type TablesConfig = z.infer<typeof tablesSchema>;

/** The documented defaults, for callers that run a table query outside a configured agent. */
export const TABLE_QUERY_DEFAULTS: TablesConfig = tablesSchema.parse({});
