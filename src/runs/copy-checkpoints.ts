import type { BaseCheckpointSaver, CheckpointTuple } from '@langchain/langgraph';

type PendingWrite = Parameters<BaseCheckpointSaver['putWrites']>[1][number];

/**
 * Copies every checkpoint of a thread (each namespace, each branch) with its pending writes to another thread id,
 * through the saver's own `list`, `put` and `putWrites`: the copy's states, parents and interrupts are the
 * original's, stored as the saver stores any. Parents go before their children (checkpoint ids are time-ordered,
 * uuid6). Resolves with how many checkpoints were copied.
 */
export async function copyCheckpoints(saver: BaseCheckpointSaver, from: string, to: string): Promise<number> {
  const tuples: CheckpointTuple[] = [];
  for await (const tuple of saver.list({ configurable: { thread_id: from } })) tuples.push(tuple);
  tuples.sort((a, b) => (a.checkpoint.id < b.checkpoint.id ? -1 : a.checkpoint.id > b.checkpoint.id ? 1 : 0));
  for (const tuple of tuples) {
    const namespace = (tuple.config.configurable?.checkpoint_ns as string | undefined) ?? '';
    const parent = tuple.parentConfig?.configurable?.checkpoint_id as string | undefined;
    const stored = await saver.put(
      { configurable: { thread_id: to, checkpoint_ns: namespace, ...(parent ? { checkpoint_id: parent } : {}) } },
      tuple.checkpoint,
      tuple.metadata ?? { source: 'fork', step: -1, parents: {} },
      // Every channel is new to the copy: the saver stores each value once for the new thread.
      tuple.checkpoint.channel_versions,
    );
    const byTask = new Map<string, PendingWrite[]>();
    for (const [taskId, channel, value] of tuple.pendingWrites ?? [])
      byTask.set(taskId, [...(byTask.get(taskId) ?? []), [channel, value]]);
    for (const [taskId, writes] of byTask) await saver.putWrites(stored, writes, taskId);
  }
  return tuples.length;
}
