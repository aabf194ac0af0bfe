import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AIMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingChatModel } from '../../../testing/recording-chat-model.ts';
import { openAgent } from '../../../testing/agent-client.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../../testing/sample-corpus-store.ts';
import { loadTableSchemas } from '../../table-sql/table-schemas.ts';

let sample: SampleCorpusStore;
beforeAll(async () => {
  sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
});
afterAll(async () => {
  await sample?.close();
});

const storeBytes = () =>
  [sample.db, `${sample.db}-wal`].reduce((sum, path) => sum + (existsSync(path) ? statSync(path).size : 0), 0);
const toolCall = (name: string, args: Record<string, unknown>) =>
  new AIMessage({
    content: '',
    tool_calls: [{ id: `${name}-${randomUUID().slice(0, 8)}`, name, args, type: 'tool_call' }],
  });

describe('a hostile table query through an agent run', () => {
  // Before the byte bounds, this query's 120 MB result went into the observation, and from there into every
  // checkpoint, checkpoint write and `values` run event of the run: the store grew by 1.2 GB.
  it('comes back as a query_too_large observation, and the run stores kilobytes, not the result', {
    timeout: 60_000,
  }, async () => {
    const alice = await sample.evident.principalFor('alice');
    const [table] = await sample.evident.store.listTables(alice);
    const sql = `SELECT hex(zeroblob(20000000)) AS x FROM ${table?.sqlName ?? ''} LIMIT 3`;
    const model = new RecordingChatModel([
      toolCall('table_query', { sql }),
      toolCall('final_answer', {
        answer: 'No answer.',
        answerable: false,
        confidence: 0.1,
        citations: [],
        missing_information: ['the value'],
      }),
    ]);
    const agent = await openAgent(sample.evident, 'react', { chat: { id: 'recording:hostile', model } });
    try {
      const before = storeBytes();
      await agent.ask({ question: 'How long is the value?', principal: alice });
      const observation = model.calls[1]?.messages.find((message) => message.getType() === 'tool');
      expect(observation?.text).toContain('tables.maxValueBytes');
      expect(observation?.text.length).toBeLessThan(1000);
      expect(storeBytes() - before).toBeLessThan(8 * 1024 * 1024);
    } finally {
      await agent.close();
    }
  });

  it('reads only short distinct values of text columns into the schemas a prompt shows', async () => {
    const csv = join(sample.dir, 'notes.csv');
    await writeFile(csv, `id,note\n1,short note\n2,${'long '.repeat(2000)}\n`);
    expect(await sample.evident.ingestor.ingest([csv])).toMatchObject({ added: 1, failed: 0 });
    const schemas = await loadTableSchemas(sample.evident.store, await sample.evident.principalFor('alice'));
    const notes = schemas.find((schema) => schema.docId.endsWith('notes.csv'));
    expect(notes?.values?.note).toEqual(['short note']);
  });
});
