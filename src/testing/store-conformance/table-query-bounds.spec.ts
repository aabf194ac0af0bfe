import { beforeEach, describe, expect, it } from 'vitest';
import { isEvidentError } from '../../errors/index.ts';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { CAROL, documentWrite, ordersTable, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** The same attack in each backend's dialect. */
interface Dialected {
  sqlite: string;
  postgresql: string;
}

/**
 * Queries that build huge values or results from almost nothing: each must be stopped at a bound, not returned.
 * (Postgres's `repeat` takes about 1.8 s per 100 MB here, so its values are smaller: a timeout is a stop too.)
 */
const HOSTILE: Dialected[] = [
  { sqlite: 'SELECT zeroblob(300000000)', postgresql: "SELECT decode(repeat('00', 50000000), 'hex')" },
  { sqlite: 'SELECT hex(zeroblob(200000000))', postgresql: "SELECT repeat('x', 100000000)" },
  { sqlite: 'SELECT randomblob(300000000)', postgresql: "SELECT lpad('', 300000000, 'x')" },
  { sqlite: "SELECT printf('%.*c', 300000000, 'x')", postgresql: "SELECT rpad('x', 300000000, 'yz')" },
  {
    sqlite: "SELECT replace(hex(zeroblob(100000000)), '0', 'xx')",
    postgresql: "SELECT replace(repeat('0', 30000000), '0', 'xx')",
  },
  {
    sqlite:
      "WITH RECURSIVE s(x, n) AS (SELECT 'ab', 0 UNION ALL SELECT x || x, n + 1 FROM s WHERE n < 27) SELECT x FROM s",
    postgresql:
      "WITH RECURSIVE s(x, n) AS (SELECT 'ab'::text, 0 UNION ALL SELECT x || x, n + 1 FROM s WHERE n < 27) SELECT x FROM s",
  },
  {
    sqlite:
      "WITH RECURSIVE s(x, n) AS (SELECT 'ab', 0 UNION ALL SELECT x || x, n + 1 FROM s WHERE n < 27) SELECT max(length(x)), x FROM s",
    postgresql:
      "WITH RECURSIVE s(x, n) AS (SELECT 'ab'::text, 0 UNION ALL SELECT x || x, n + 1 FROM s WHERE n < 27) SELECT x FROM s ORDER BY n DESC LIMIT 1",
  },
  {
    // Every value under the value bound, the rows together far over the result bound.
    sqlite:
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT hex(zeroblob(100000)) FROM n',
    postgresql: "SELECT repeat('x', 200000) FROM generate_series(1, 100000)",
  },
  {
    sqlite:
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) SELECT group_concat(hex(zeroblob(1000000))) FROM n',
    postgresql: "SELECT string_agg(repeat('x', 1000000), '') FROM generate_series(1, 100)",
  },
  {
    sqlite: 'SELECT hex(zeroblob(150000000)), hex(zeroblob(150000000)), hex(zeroblob(150000000))',
    postgresql: "SELECT repeat('x', 60000000), repeat('y', 60000000), repeat('z', 60000000)",
  },
];

/** Table queries are bounded in bytes as well as rows and time, on every backend (issue 12, item 8). */
export function describeTableQueryBounds(suite: ConformanceSuite): void {
  describe('table query bounds', () => {
    let store: Store;
    let orders = '';
    beforeEach(async () => {
      store = suite.store;
      await store.putDocument(
        documentWrite({
          docId: 'orders.csv',
          chunks: [{ text: 'order rows', vector: unitVector(random(31)) }],
          tables: [ordersTable()],
        }),
      );
      orders = (await store.listTables(CAROL))[0]?.sqlName ?? '';
    });

    const sql = (query: Dialected) => query[store.sqlDialect];
    async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; hint: string }> {
      const error: unknown = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isEvidentError(error), `expected an Evident error, got ${String(error)}`).toBe(true);
      const { code, message, hint } = error as { code: string; message: string; hint?: string };
      return { code, message, hint: hint ?? '' };
    }

    it('stops at the bound of a single value and names its setting', async () => {
      const wide = {
        sqlite: "SELECT printf('%.*c', 100000, 'x') AS wide",
        postgresql: "SELECT repeat('x', 100000) AS wide",
      };
      const error = await failure(
        store.queryTables(sql(wide), CAROL, { maxRows: 10, timeoutMs: 10_000, maxValueBytes: 65_536 }),
      );
      expect(error.code).toBe('query_too_large');
      expect(error.message).toContain('65536 bytes');
      expect(error.message).toContain('tables.maxValueBytes');
      expect(error.message).toContain('EVIDENT_TABLE_MAX_VALUE_BYTES');
      expect(error.message.length).toBeLessThan(500);
      // The value itself is fine under a bound that fits it.
      const fits = await store.queryTables(sql(wide), CAROL, {
        maxRows: 10,
        timeoutMs: 10_000,
        maxValueBytes: 100_000,
      });
      expect((fits.rows[0]?.[0] as string).length).toBe(100_000);
      // A huge one is stopped as a value, wherever it shows first (Postgres folds constants into the plan it sends).
      const huge = { sqlite: "SELECT printf('%.*c', 10000000, 'x')", postgresql: "SELECT repeat('x', 10000000)" };
      const stopped = await store
        .queryTables(sql(huge), CAROL, { maxRows: 10, timeoutMs: 10_000 })
        .catch((caught: unknown) => caught);
      expect(stopped).toMatchObject({ code: 'query_too_large', details: { bound: 'value', limitBytes: 262_144 } });
    });

    it('stops at the bound of the whole result, counting every row it returns', async () => {
      const rows = {
        sqlite:
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i, printf('%.*c', 2000, 'x') FROM n",
        postgresql: "SELECT i, repeat('x', 2000) FROM generate_series(1, 1000) AS g(i)",
      };
      const bounds = { timeoutMs: 10_000, maxResultBytes: 1_048_576, maxValueBytes: 4096 };
      const error = await failure(store.queryTables(sql(rows), CAROL, { ...bounds, maxRows: 5000 }));
      expect(error.code).toBe('query_too_large');
      expect(error.message).toContain('1048576 bytes');
      expect(error.message).toContain('tables.maxResultBytes');
      expect(error.message).toContain('EVIDENT_TABLE_MAX_RESULT_BYTES');
      // 100 rows of about 2 kB fit; the rows past maxRows are not counted.
      const fits = await store.queryTables(sql(rows), CAROL, { ...bounds, maxRows: 100 });
      expect(fits.rows).toHaveLength(100);
      expect(fits.truncated).toBe(true);
      // Column names count too (Postgres cuts a name to 63 bytes: 40 of 60 bytes each).
      const names = Array.from({ length: 40 }, (_, i) => `1 AS "${'n'.repeat(58)}${String(i).padStart(2, '0')}"`);
      const named = `SELECT ${names.join(', ')} FROM ${orders}`;
      expect(
        (await failure(store.queryTables(named, CAROL, { maxRows: 1, timeoutMs: 10_000, maxResultBytes: 1024 }))).code,
      ).toBe('query_too_large');
    });

    it('refuses byte bounds that are not positive whole numbers', async () => {
      for (const bad of [
        { maxResultBytes: 0 },
        { maxValueBytes: -1 },
        { maxMemoryBytes: Number.NaN },
        { maxResultBytes: 1.5 },
      ]) {
        const error = await failure(
          store.queryTables(`SELECT 1 FROM ${orders}`, CAROL, { maxRows: 1, timeoutMs: 1000, ...bad }),
        );
        expect(error.code, JSON.stringify(bad)).toBe('invalid_input');
      }
    });

    it('stops queries that build huge values or results, then runs the next one', { timeout: 180_000 }, async () => {
      // SQLite runs one table query at a time, so the attacks go one after another. PostgreSQL runs one per principal
      // and four at once (src/store/postgres/document-store.ts): there four readers of the (public) table attack
      // together, so the 3 s stops overlap instead of adding up (about 22 s one after another in CI).
      const lanes = store.sqlDialect === 'postgresql' ? 4 : 1;
      for (let first = 0; first < HOSTILE.length; first += lanes) {
        const wave = HOSTILE.slice(first, first + lanes).map(async (query, lane) => {
          const asker = lane === 0 ? CAROL : { ...CAROL, id: `${CAROL.id}-${lane}` };
          const error = await failure(store.queryTables(sql(query), asker, { maxRows: 200, timeoutMs: 3_000 }));
          expect(['query_too_large', 'query_timeout'], `${sql(query)}: ${error.message}`).toContain(error.code);
          expect(error.message.length).toBeLessThan(500);
          const next = await store.queryTables(`SELECT count(*) AS n FROM ${orders}`, asker, {
            maxRows: 1,
            timeoutMs: 5_000,
          });
          expect(next.rows.map((row) => Number(row[0]))).toEqual([3]);
        });
        await Promise.all(wave);
      }
    });
  });
}
