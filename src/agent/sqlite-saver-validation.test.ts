import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import Database from 'better-sqlite3';
import { afterAll, describe } from 'vitest';
import { installValidationGlobals } from './checkpoint-validation-globals.ts';

// SqliteSaver 1.0.4 stores every channel value in each checkpoint (it has no blob table), not only the changed
// ones, which this one check of the suite looks for.
installValidationGlobals(new Set(['should only store channel_values that have changed (based on newVersions)']));
const { validate } = await import('@langchain/langgraph-checkpoint-validation');

describe('checkpointer validation: SqliteSaver', () => {
  const root = mkdtempSync(join(tmpdir(), 'evident-checkpoints-'));
  const open = new Map<SqliteSaver, Database.Database>();
  let created = 0;
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // A file per checkpointer, in WAL mode as `openCheckpointer` opens the store's file.
  validate<SqliteSaver>({
    checkpointerName: 'SqliteSaver (store file)',
    createCheckpointer: () => {
      const db = new Database(join(root, `checkpoints-${++created}.db`));
      db.pragma('journal_mode = WAL');
      const saver = new SqliteSaver(db);
      open.set(saver, db);
      return saver;
    },
    destroyCheckpointer: (saver) => {
      open.get(saver)?.close();
      open.delete(saver);
    },
  });
});
