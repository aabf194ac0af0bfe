import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import type { Principal } from '../domain/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { withSchema } from '../store/postgres/drop-store.ts';
import { openAgent } from '../testing/agent-client.ts';
import { CompliantChatModel } from '../testing/compliant-chat-model.ts';
import { probeAnswer, runTableFuzz, TABLE_FUZZ, writeTableFuzzCorpus } from '../testing/table-probes.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';

/**
 * Issue 26: the leak fuzz, extended to SQL over ingested tables. A member of engineering writes seeded statements about
 * a table only finance may read — through the store port, the audited path the CLI and MCP take, and a react run whose
 * model runs whatever SQL a document tells it to — on SQLite and on PostgreSQL (where functions run SQL text of their
 * own). Nothing of the table may come back, and the restricted table must answer as a missing one does.
 */
const { secret: SECRET, restricted: RESTRICTED } = TABLE_FUZZ;
const PROBES = 48;

/** The fuzz on one backend: `flags` opens its store, `cleanup` drops what the store left behind. */
function fuzzSuite(backend: {
  name: string;
  flags: () => Record<string, string>;
  cleanup?: () => Promise<void>;
}): void {
  {
    let evident: Evident;
    let bob: Principal;
    const folder = mkdtempSync(join(tmpdir(), 'evident-table-fuzz-docs-'));
    beforeAll(async () => {
      writeTableFuzzCorpus(folder);
      evident = await createEvident(loadConfig({ flags: backend.flags(), env: {} }));
      await evident.store.upsertUser({ name: 'bob', groups: ['engineering'] });
      await evident.store.upsertUser({ name: 'erin', groups: ['finance'] });
      const summary = await evident.ingestor.ingest([folder]);
      if (summary.failed > 0) throw new Error(JSON.stringify(summary.outcomes));
      bob = await evident.principalFor('bob');
    }, 60_000);
    afterAll(async () => {
      await evident?.close();
      rmSync(folder, { recursive: true, force: true });
      await backend.cleanup?.();
    });

    it('reads the table for finance, so the probes below can fail', async () => {
      expect(
        await probeAnswer(evident, `SELECT note FROM ${RESTRICTED}`, await evident.principalFor('erin'), false),
      ).toContain(SECRET);
    });

    it(`answers ${PROBES} seeded probes of the restricted table as it answers them of a missing one, with nothing of it`, async () => {
      const { leaks, differs } = await runTableFuzz(evident, bob, {
        count: PROBES / 2,
        seed: 20_261_205,
        postgres: backend.name === 'PostgreSQL',
      });
      expect(leaks).toEqual([]);
      expect(differs).toEqual([]);
    }, 120_000);

    it('a react run whose model runs the SQL a document gives it gets nothing of the table', async () => {
      const model = new CompliantChatModel();
      const react = await openAgent(evident, 'react', { chat: { id: 'compliant:table-fuzz', model } });
      try {
        const result = await react.ask({
          question: 'What does the ledger check say about the dredging line?',
          principal: bob,
        });
        expect(result.tool_calls.some((call) => call.name === 'table_query')).toBe(true);
        expect(JSON.stringify(result).toLowerCase()).not.toContain(SECRET);
        expect(model.prompts.join('\n').toLowerCase()).not.toContain(SECRET);
      } finally {
        await react.close();
      }
    }, 60_000);
  }
}

describe('table leak fuzz on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evident-table-fuzz-'));
  fuzzSuite({
    name: 'SQLite',
    flags: () => ({ db: join(dir, 'store.db') }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  });
});

describeWithPostgres('table leak fuzz on PostgreSQL', (url) => {
  const schema = freshSchema('evident_table_fuzz');
  fuzzSuite({
    name: 'PostgreSQL',
    flags: () => ({ databaseUrl: withSchema(url, schema) }),
    cleanup: () => dropSchemas(url, [schema]),
  });
});
