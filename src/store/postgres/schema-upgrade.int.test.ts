import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { Principal } from '../../domain/index.ts';
import { BEFORE_PLATFORM_MIGRATIONS } from '../../testing/postgres-migration-rollback.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { ADMIN, ALICE, BOB, documentWrite, unitVector } from '../../testing/store-conformance/fixtures.ts';
import { chunkPostingMismatches } from './keyword-block-check.ts';
import { openPostgresStore } from './store.ts';

/** The store's keyword schema as migration 7 left it: postings without lengths, GIN indexes on the tsvectors, no audit log (9, 12), no document files (10), no ACL epoch (13), no document metadata or parent (14), no table descriptions (15), no chunk regions (16), no feedback (17), no assistants (18), no run queue (19), no crons (20), no run webhooks (21), memories not yet store items (22, 23), postings not yet in blocks (26). */
const SCHEMA_7 = `
  ${BEFORE_PLATFORM_MIGRATIONS}
  CREATE TABLE keyword_postings_v7 AS SELECT corpus, term, pk, tf FROM keyword_postings;
  DROP TABLE keyword_postings;
  ALTER TABLE keyword_postings_v7 RENAME TO keyword_postings;
  ALTER TABLE keyword_postings ALTER COLUMN term SET DATA TYPE text COLLATE "C", ALTER COLUMN corpus SET NOT NULL,
    ALTER COLUMN term SET NOT NULL, ALTER COLUMN pk SET NOT NULL, ALTER COLUMN tf SET NOT NULL;
  ALTER TABLE keyword_postings ADD PRIMARY KEY (corpus, term, pk) INCLUDE (tf);
  CREATE INDEX chunks_keyword ON chunks USING gin (keyword);
  CREATE INDEX chapter_summaries_keyword ON chapter_summaries USING gin (keyword);
  CREATE INDEX quotes_keyword ON quotes USING gin (keyword);
  DROP TABLE audit_log;
  DROP FUNCTION audit_log_append_only();
  DROP TABLE document_files;
  DROP TABLE acl_epoch;
  ALTER TABLE documents DROP COLUMN metadata, DROP COLUMN parent_doc_id;
  ALTER TABLE doc_tables DROP COLUMN description;
  ALTER TABLE chunks DROP COLUMN regions;
  DELETE FROM schema_migrations WHERE version >= 8;`;

describeWithPostgres('postgres schema upgrade', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it("upgrades a store of schema 7 in place: postings gain their rows' lengths and rank as before", async () => {
    const schema = freshSchema('evident_upgrade');
    schemas.push(schema);
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 4_294_967_296;
    const words = ['harbour', 'invoice', 'contract', 'renewal', 'penalty', 'clause', 'tariff', 'audit'];
    const text = () =>
      Array.from({ length: 6 + Math.floor(next() * 20) }, () => words[Math.floor(next() * words.length)]).join(' ');
    const store = await openPostgresStore(url, { schema });
    for (let d = 0; d < 12; d++) {
      const acl = d % 3 === 0 ? ['group:legal'] : [];
      await store.putDocument(
        documentWrite({
          docId: `doc-${d}.md`,
          acl,
          chunks: Array.from({ length: 4 }, () => ({ text: text(), vector: unitVector(next) })),
        }),
      );
    }
    const queries = [['harbour'], ['invoice', 'penalty'], ['audit', 'tariff', 'clause'], ['contr*']];
    const principals: Principal[] = [ADMIN, ALICE, BOB];
    const search = async () => {
      const out = [];
      for (const terms of queries)
        for (const principal of principals) out.push(await store.keywordSearch(terms, principal, 5));
      return out;
    };
    const before = await search();
    await store.close();

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path = "${schema}"`);
      await client.query(SCHEMA_7);
      const reopened = await openPostgresStore(url, { schema });
      try {
        const after = [];
        for (const terms of queries)
          for (const principal of principals) after.push(await reopened.keywordSearch(terms, principal, 5));
        expect(after).toEqual(before);
        expect(before.flat().length).toBeGreaterThan(0);
      } finally {
        await reopened.close();
      }
      const version = await client.query<{ v: number }>('SELECT max(version) AS v FROM schema_migrations');
      expect(version.rows[0]?.v).toBeGreaterThanOrEqual(8);
      expect(await chunkPostingMismatches(client, `"${schema}"`)).toEqual([]);
      const unpacked = await client.query(
        "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'keyword_postings'",
      );
      expect(unpacked.rows).toEqual([]);
      const gin = await client.query(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexdef ILIKE '%USING gin (keyword)%'",
      );
      expect(gin.rows).toEqual([]);
    } finally {
      await client.end();
    }
  }, 60_000);
});
