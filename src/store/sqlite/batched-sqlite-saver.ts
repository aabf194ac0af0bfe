import { copyCheckpoint, type Checkpoint, type CheckpointMetadata, type CheckpointTuple } from '@langchain/langgraph';
import type { RunnableConfig } from '@langchain/core/runnables';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import type Database from 'better-sqlite3';

/** LangGraph's fixed indexes of its special write channels (errors, interrupts, …), as SqliteSaver numbers them. */
const WRITES_IDX_MAP: Record<string, number> = { __error__: -1, __scheduled__: -2, __interrupt__: -3, __resume__: -4 };

type PendingWrite = Parameters<SqliteSaver['putWrites']>[1][number];

/**
 * A turn of the event loop hands back at most this many waiting steps, and stops once they have run this long: the
 * rest go on in the next turn, after the loop has read what arrived meanwhile (a new request's first event waits for
 * a bounded slice of steps, not for one step of every executing run).
 */
const STEPS_PER_TURN = 16;
const TURN_BUDGET_MS = 15;

interface Pending {
  threadId: string;
  sql: string;
  rows: unknown[][];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Nesting past this is not taken for plain data (a cycle would never end): LangGraph's serializer writes it. */
const PLAIN_DEPTH = 64;

/** JSON values only (no undefined, class instance, function, cycle): what `JSON.stringify` writes as LangGraph's serializer does. */
function isPlainJson(value: unknown, depth = 0): boolean {
  if (value === null) return true;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  if (type !== 'object' || depth > PLAIN_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!isPlainJson(value[index], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/**
 * The saver's serializer with a fast way for plain data: LangGraph's writes through a replacer (undefined, sets, maps,
 * errors and messages are tagged) after a walk for cycles, which makes JSON.stringify take its slow path for every
 * checkpoint of every step. For a value that holds none of those the replacer changes nothing, so the bytes are the
 * same; anything else goes to it as before. Reading is LangGraph's.
 */
function plainJsonFirst(serde: SqliteSaver['serde']): SqliteSaver['serde'] {
  const encoder = new TextEncoder();
  return {
    dumpsTyped: async (value) =>
      isPlainJson(value) ? ['json', encoder.encode(JSON.stringify(value))] : serde.dumpsTyped(value),
    loadsTyped: (type, data) => serde.loadsTyped(type, data),
  };
}

/**
 * SqliteSaver with its writes batched: `put` and `putWrites` serialise at once and queue their rows; whatever every
 * run queued during one turn of the event loop is written in one transaction when the loop next checks immediates
 * (one commit, not one or two per step of every run), and each call resolves once its rows are committed and its
 * turn comes (`release`). The rows, tables and reads are SqliteSaver's own. Every read writes what is queued first,
 * so a read sees every write made before it. A graph run with `durability: 'sync'` waits for its step's write, so its
 * next step comes after whatever else the loop has to do (a request, other runs' steps): runs on one event loop take
 * turns by steps, a bounded slice of them per turn of the loop.
 */
export class BatchedSqliteSaver extends SqliteSaver {
  private queue: Pending[] = [];
  private scheduled = false;
  /** Callers whose rows are committed, waiting for their turn to go on, by thread, oldest first. */
  private readonly ready = new Map<string, (() => void)[]>();
  private releasing = false;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    super(db);
    this.serde = plainJsonFirst(this.serde);
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
  ): Promise<RunnableConfig> {
    this.setup();
    if (!config.configurable) throw new Error('Empty configuration supplied.');
    const threadId = config.configurable.thread_id as string | undefined;
    const checkpointNs = (config.configurable.checkpoint_ns as string | undefined) ?? '';
    const parentCheckpointId = config.configurable.checkpoint_id as string | undefined;
    if (!threadId) throw new Error('Missing "thread_id" field in passed "config.configurable".');
    const [[type, serializedCheckpoint], [metadataType, serializedMetadata]] = await Promise.all([
      this.serde.dumpsTyped(copyCheckpoint(checkpoint)),
      this.serde.dumpsTyped(metadata),
    ]);
    if (type !== metadataType) throw new Error('Failed to serialized checkpoint and metadata to the same type.');
    await this.enqueue(
      threadId,
      'INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [[threadId, checkpointNs, checkpoint.id, parentCheckpointId, type, serializedCheckpoint, serializedMetadata]],
    );
    return { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    this.setup();
    if (!config.configurable) throw new Error('Empty configuration supplied.');
    if (!config.configurable.thread_id) throw new Error('Missing thread_id field in config.configurable.');
    if (!config.configurable.checkpoint_id) throw new Error('Missing checkpoint_id field in config.configurable.');
    if (writes.length === 0) return;
    // As SqliteSaver: special writes replace their slot, ordinary ones keep the first write of an index.
    const allSpecial = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    const rows = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, serialized] = await this.serde.dumpsTyped(value);
        const {
          thread_id: threadId,
          checkpoint_ns: checkpointNs,
          checkpoint_id: checkpointId,
        } = config.configurable as Record<string, unknown>;
        return [
          threadId,
          checkpointNs,
          checkpointId,
          taskId,
          WRITES_IDX_MAP[channel] ?? idx,
          channel,
          type,
          serialized,
        ];
      }),
    );
    await this.enqueue(
      String(config.configurable.thread_id),
      `INSERT ${allSpecial ? 'OR REPLACE' : 'OR IGNORE'} INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      rows,
    );
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    this.flush();
    return super.getTuple(config);
  }

  override async *list(...args: Parameters<SqliteSaver['list']>): AsyncGenerator<CheckpointTuple> {
    this.flush();
    yield* super.list(...args);
  }

  override async deleteThread(threadId: string): Promise<void> {
    this.flush();
    await super.deleteThread(threadId);
  }

  /** A rollback: the thread's checkpoints after `after` (all when null) and their writes, in one transaction. */
  async deleteCheckpointsAfter(threadId: string, after: string | null): Promise<number> {
    this.flush();
    this.setup();
    const bound = after ?? '';
    return this.db.transaction(() => {
      this.statement('DELETE FROM writes WHERE thread_id = ? AND checkpoint_id > ?').run(threadId, bound);
      return this.statement('DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id > ?').run(threadId, bound)
        .changes;
    })();
  }

  /** Writes what is queued now, in one transaction (before a read, and before the connection closes). */
  flush(): void {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    try {
      this.db.transaction(() => {
        for (const { sql, rows } of batch) {
          const statement = this.statement(sql);
          for (const row of rows) statement.run(...row);
        }
      })();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const pending of batch) {
      const callers = this.ready.get(pending.threadId);
      if (callers) callers.push(pending.resolve);
      else this.ready.set(pending.threadId, [pending.resolve]);
    }
    this.release();
  }

  /**
   * Hands committed callers back in slices, one slice per turn of the loop, a thread at a time (all its calls at
   * once: a step waits for its checkpoint and its writes together): each thread in an immediate of its own (the loop
   * runs its continuation, the step, before the next immediate), until the slice's count or time budget is spent.
   */
  private release(): void {
    if (this.releasing || this.ready.size === 0) return;
    this.releasing = true;
    const slice = Math.min(this.ready.size, STEPS_PER_TURN);
    let began: number | undefined;
    for (let index = 0; index < slice; index++) {
      setImmediate(() => {
        const now = performance.now();
        began ??= now;
        if (now - began > TURN_BUDGET_MS) return;
        const next = this.ready.entries().next();
        if (next.done) return;
        const [threadId, callers] = next.value;
        this.ready.delete(threadId);
        for (const resolve of callers) resolve();
      });
    }
    setImmediate(() => {
      this.releasing = false;
      this.release();
    });
  }

  private enqueue(threadId: string, sql: string, rows: unknown[][]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ threadId, sql, rows, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    });
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
