import { dropPostgresStore, withSchema } from '../store/postgres/drop-store.ts';
import { describeWithPostgres, freshSchema } from '../store/postgres/test-database.ts';
import { installValidationGlobals } from './checkpoint-validation-globals.ts';
import { LazyPostgresSaver } from './postgres-saver.ts';

installValidationGlobals();
const { validate } = await import('@langchain/langgraph-checkpoint-validation');

describeWithPostgres('checkpointer validation: PostgresSaver', (url) => {
  const schemas = new Map<LazyPostgresSaver, string>();
  // A fresh schema per checkpointer, set up by its first call as `openCheckpointer` uses it.
  validate<LazyPostgresSaver>({
    checkpointerName: 'PostgresSaver (store schema, set up on first use)',
    createCheckpointer: () => {
      const schema = freshSchema('evident_checkpoints');
      const saver = LazyPostgresSaver.connect(url, schema);
      schemas.set(saver, schema);
      return saver;
    },
    destroyCheckpointer: async (saver) => {
      await saver.end();
      await dropPostgresStore(withSchema(url, schemas.get(saver) as string));
    },
  });
});
