import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { afterAll, describe } from 'vitest';
import { installValidationGlobals } from '../../testing/store-conformance/checkpoint-validation-globals.ts';
import type { Checkpointer } from '../ports/checkpoint-store.ts';
import { openSqliteCheckpointer } from './checkpointer.ts';

// SqliteSaver 1.0.4 stores every channel value in each checkpoint (it has no blob table), not only the changed
// ones, which this one check of the suite looks for.
installValidationGlobals(new Set(['should only store channel_values that have changed (based on newVersions)']));
const { validate } = await import('@langchain/langgraph-checkpoint-validation');

describe('checkpointer validation: SqliteSaver', () => {
  const root = mkdtempSync(join(tmpdir(), 'evident-checkpoints-'));
  const open = new Map<BaseCheckpointSaver, Checkpointer>();
  let created = 0;
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // A file per checkpointer, opened as the store opens its own file's checkpointer.
  validate<BaseCheckpointSaver>({
    checkpointerName: 'SqliteSaver (store file)',
    createCheckpointer: () => {
      const checkpointer = openSqliteCheckpointer(join(root, `checkpoints-${++created}.db`));
      open.set(checkpointer.saver, checkpointer);
      return checkpointer.saver;
    },
    destroyCheckpointer: async (saver) => {
      await open.get(saver)?.close();
      open.delete(saver);
    },
  });
});
