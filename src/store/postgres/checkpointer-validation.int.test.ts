import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { installValidationGlobals } from '../../testing/store-conformance/checkpoint-validation-globals.ts';
import type { Checkpointer } from '../ports/checkpoint-store.ts';
import { dropPostgresStore, withSchema } from './drop-store.ts';
import { openPostgresCheckpointer } from './checkpointer.ts';
import { describeWithPostgres, freshSchema } from '../../testing/postgres-test-database.ts';

installValidationGlobals();
const { validate } = await import('@langchain/langgraph-checkpoint-validation');

describeWithPostgres('checkpointer validation: PostgresSaver', (url) => {
  const open = new Map<BaseCheckpointSaver, { checkpointer: Checkpointer; schema: string }>();
  // A fresh schema per checkpointer, set up by its first call, as the store opens its own schema's checkpointer.
  validate<BaseCheckpointSaver>({
    checkpointerName: 'PostgresSaver (store schema, set up on first use)',
    createCheckpointer: () => {
      const schema = freshSchema('evident_checkpoints');
      const checkpointer = openPostgresCheckpointer(url, schema);
      open.set(checkpointer.saver, { checkpointer, schema });
      return checkpointer.saver;
    },
    destroyCheckpointer: async (saver) => {
      const entry = open.get(saver) as { checkpointer: Checkpointer; schema: string };
      await entry.checkpointer.close();
      await dropPostgresStore(withSchema(url, entry.schema));
      open.delete(saver);
    },
  });
});
