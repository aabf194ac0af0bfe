import type { PoolClient } from 'pg';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import { createPool, type PostgresTarget } from './connection.ts';
import { PooledConnections, type PostgresPool } from './pool.ts';
import { PrimaryPositions, StandbyProbe, readSystemId } from './replica-health.ts';
import { isServerUnavailable } from './server-unavailable.ts';
import { formatWalPosition, parseWalPosition, type WalPosition } from './wal-position.ts';
import { WritePositions } from './write-positions.ts';

export interface ReadReplicaOptions {
  /** A standby further behind the primary than this is skipped until it catches up (default 5000 ms). */
  maxLagMs?: number;
  /** How often each standby's health and replay position are checked (default 1000 ms). */
  checkIntervalMs?: number;
  /** How long a check, or a connection for a read, may take before the standby counts as down (default 1000 ms). */
  timeoutMs?: number;
  /** How long a standby that failed is left alone before it is checked again (default 5000 ms). */
  retryAfterMs?: number;
  /** Connections this process keeps at most to each standby. */
  poolSize?: number;
  logger?: Logger;
}

export type ReplicaState = 'unchecked' | 'up' | 'lagging' | 'down' | 'not_a_standby';

/** One standby as the router sees it, for diagnostics and tests. */
export interface ReadReplicaStatus {
  location: string;
  state: ReplicaState;
  /** The last replay position seen (`X/Y`). */
  replayed?: string;
  /** Why it is not `up`. */
  reason?: string;
  /** Reads it has served. */
  reads: number;
}

class Replica {
  state: ReplicaState = 'unchecked';
  replayed: WalPosition | undefined;
  reason: string | undefined;
  retryAt = 0;
  reads = 0;

  constructor(
    readonly target: PostgresTarget,
    readonly pool: PooledConnections,
    readonly probe: StandbyProbe,
  ) {}

  status(): ReadReplicaStatus {
    return {
      location: this.target.location,
      state: this.state,
      ...(this.replayed === undefined ? {} : { replayed: formatWalPosition(this.replayed) }),
      ...(this.reason === undefined ? {} : { reason: this.reason }),
      reads: this.reads,
    };
  }
}

const REPLAYED = 'SELECT pg_last_wal_replay_lsn()::text AS replayed';
const INSERTED = 'SELECT pg_current_wal_insert_lsn()::text AS position';

/**
 * Routes reads to PostgreSQL hot standbys (`EVIDENT_DATABASE_READ_URLS`) and keeps every write on the primary.
 * A standby serves a read only when it is up, a standby of this primary, within the lag bound, and has replayed
 * this process's latest write in the read's scope (a thread, a user's memories, the documents) and everything written
 * before the process opened the store, so a client reads its own writes; otherwise, or when the standby fails under the read, the read runs on the primary. Health is
 * checked on a timer with a short timeout; a standby that failed is checked again after `retryAfterMs`.
 */
export class ReadReplicas {
  private readonly positions = new WritePositions();
  private readonly history = new PrimaryPositions();
  private readonly maxLagMs: number;
  private readonly intervalMs: number;
  private readonly retryAfterMs: number;
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private primarySystemId: string | undefined;
  private next = 0;

  private constructor(
    private readonly primary: PooledConnections,
    private readonly replicas: Replica[],
    options: ReadReplicaOptions,
  ) {
    this.maxLagMs = options.maxLagMs ?? 5000;
    this.intervalMs = options.checkIntervalMs ?? 1000;
    this.retryAfterMs = options.retryAfterMs ?? 5000;
    this.logger = options.logger ?? silentLogger;
  }

  /** Opens a pool per standby and checks them once, so the first reads are already routed by what was seen. */
  static async open(
    primary: PooledConnections,
    targets: readonly PostgresTarget[],
    searchPath: readonly string[],
    options: ReadReplicaOptions = {},
  ): Promise<ReadReplicas> {
    const timeoutMs = options.timeoutMs ?? 1000;
    const logger = options.logger ?? silentLogger;
    const replicas = targets.map((target) => {
      const connections = createPool(target, searchPath, options.poolSize, timeoutMs);
      connections.on('error', (error) =>
        logger.warn('read replica connection lost', { location: target.location, error: error.message }),
      );
      return new Replica(
        target,
        new PooledConnections(connections, target, primary.names),
        new StandbyProbe(target, timeoutMs),
      );
    });
    const router = new ReadReplicas(primary, replicas, options);
    router.primarySystemId = await primary.withClient('read the cluster id', (c) => readSystemId(c));
    // What was written before this process started counts as its own: `evident ingest` then `evident search` finds
    // the new documents, whichever standby the search reads.
    const opened = await primary.withClient('read the WAL position', (c) => walPosition(c, INSERTED));
    if (opened !== undefined) router.positions.raiseFloor(opened);
    await router.check();
    router.timer = setInterval(() => void router.check(), router.intervalMs);
    router.timer.unref();
    return router;
  }

  /** A pool for the adapters' reads in `scope`: it runs each call on a fit standby, else on the primary. */
  reader(scope: string, options: { aclBound?: boolean } = {}): PostgresPool {
    const primary = this.primary;
    const read = <T>(use: (pool: PostgresPool) => Promise<T>) => this.read(scope, use, options.aclBound ?? false);
    return {
      target: primary.target,
      names: primary.names,
      location: primary.location,
      // The router owns the standbys' pools and closes them with the store.
      close: async () => undefined,
      assertOpen: () => primary.assertOpen(),
      withClient: (what, fn) => read((pool) => pool.withClient(what, fn)),
      transaction: (what, fn) => read((pool) => pool.transaction(what, fn)),
      // A caller-managed client cannot be re-run elsewhere: only the connection itself falls back.
      connect: () => read((pool) => pool.connect()),
    };
  }

  /**
   * Records where the primary's WAL stands after a write in `scopes`, for their next reads. The insert position, not
   * the written one: document writes commit asynchronously (`synchronous_commit = off`), so when COMMIT returns
   * their commit record may be inserted but not yet written.
   */
  async wrote(scopes: readonly string[]): Promise<void> {
    try {
      const position = await this.primary.withClient('read the WAL position', async (c) => walPosition(c, INSERTED));
      if (position !== undefined) this.positions.record(scopes, position);
    } catch (error) {
      this.logger.warn('could not read the primary WAL position after a write', { error: (error as Error).message });
    }
  }

  status(): ReadReplicaStatus[] {
    return this.replicas.map((replica) => replica.status());
  }

  /** One round of health checks (the timer runs them; tests call it to see a change at once). */
  check(): Promise<void> {
    this.checking ??= this.checkAll().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.checking?.catch(() => undefined);
    await Promise.all(this.replicas.map(async (replica) => Promise.all([replica.probe.close(), replica.pool.close()])));
  }

  private async checkAll(): Promise<void> {
    const now = Date.now();
    try {
      // Flushed WAL is what the primary streams: a standby that replayed all of it as of maxLagMs ago is within bound.
      const position = await this.primary.withClient('read the WAL position', (c) =>
        walPosition(c, 'SELECT pg_current_wal_flush_lsn()::text AS position'),
      );
      if (position !== undefined) this.history.add(now, position, this.maxLagMs + 2 * this.intervalMs);
    } catch {
      // The primary is unreachable: standbys keep being judged against what it last had.
    }
    await Promise.all(
      this.replicas
        .filter((replica) => replica.state !== 'down' || now >= replica.retryAt)
        .map((replica) => this.checkOne(replica, now)),
    );
  }

  private async checkOne(replica: Replica, now: number): Promise<void> {
    let reading;
    try {
      reading = await replica.probe.read();
    } catch (error) {
      this.markDown(replica, (error as Error)?.message ?? String(error));
      return;
    }
    if (!reading.inRecovery || reading.replayed === undefined) {
      return this.setState(
        replica,
        'not_a_standby',
        'the server is not in recovery (a primary, or a promoted standby): it may not serve reads of this primary',
        now,
      );
    }
    if (
      reading.systemId !== undefined &&
      this.primarySystemId !== undefined &&
      reading.systemId !== this.primarySystemId
    ) {
      return this.setState(
        replica,
        'not_a_standby',
        `a standby of another cluster (system id ${reading.systemId}, the primary's is ${this.primarySystemId})`,
        now,
      );
    }
    replica.replayed = reading.replayed;
    if (this.history.reached(reading.replayed, now, this.maxLagMs)) this.setState(replica, 'up', undefined, now);
    else this.setState(replica, 'lagging', `replay is more than ${this.maxLagMs} ms behind the primary`, now);
  }

  private markDown(replica: Replica, reason: string): void {
    this.setState(replica, 'down', reason, Date.now());
    replica.retryAt = Date.now() + this.retryAfterMs;
  }

  private setState(replica: Replica, state: ReplicaState, reason: string | undefined, now: number): void {
    if (state === 'not_a_standby') replica.retryAt = now + this.retryAfterMs;
    if (replica.state !== state) {
      const fields = {
        location: replica.target.location,
        from: replica.state,
        to: state,
        ...(reason ? { reason } : {}),
      };
      if (state === 'up') this.logger.info('read replica in use', fields);
      else this.logger.warn('read replica skipped', fields);
    }
    replica.state = state;
    replica.reason = reason;
  }

  /**
   * Runs `use` on a fit standby, falling back to the primary when none is fit or the chosen one fails under it. A read
   * bound by ACLs (`aclBound`: documents, chunks, tables) also needs the standby to have replayed the last change of who
   * may read what, made by any process (`acl_epoch`, read on the primary each time): within the lag bound or not, a
   * standby never shows a document by an ACL the primary no longer holds.
   */
  private async read<T>(scope: string, use: (pool: PostgresPool) => Promise<T>, aclBound = false): Promise<T> {
    let required = this.positions.required(scope);
    if (aclBound && this.replicas.some((replica) => replica.state === 'up')) {
      const epoch = await this.primary.withClient('read the last ACL change', (c) =>
        walPosition(c, 'SELECT position::text FROM acl_epoch'),
      );
      if (epoch !== undefined && (required === undefined || epoch > required)) required = epoch;
    }
    const replica = await this.choose(required);
    if (!replica) return use(this.primary);
    try {
      const result = await use(replica.pool);
      replica.reads++;
      return result;
    } catch (error) {
      if (!isServerUnavailable(error)) throw error;
      this.markDown(replica, (error as Error)?.message ?? String(error));
      return use(this.primary);
    }
  }

  /**
   * A standby that is up and, as last seen, has replayed `required`, taken in turn. When the ones that are up were
   * last seen short of it, one is asked where its replay is now (the write may be a moment old).
   */
  private async choose(required: WalPosition | undefined): Promise<Replica | undefined> {
    const up = this.replicas.filter((replica) => replica.state === 'up');
    if (up.length === 0) return undefined;
    const start = this.next++ % up.length;
    const turn = [...up.slice(start), ...up.slice(0, start)];
    const ready = turn.find(
      (replica) => required === undefined || (replica.replayed !== undefined && replica.replayed >= required),
    );
    if (ready || required === undefined) return ready;
    const candidate = turn[0] as Replica;
    try {
      const replayed = await candidate.pool.withClient('read the replay position', (c) => walPosition(c, REPLAYED));
      if (replayed !== undefined && (candidate.replayed === undefined || replayed > candidate.replayed))
        candidate.replayed = replayed;
      return replayed !== undefined && replayed >= required ? candidate : undefined;
    } catch (error) {
      if (isServerUnavailable(error)) this.markDown(candidate, (error as Error)?.message ?? String(error));
      return undefined;
    }
  }
}

async function walPosition(c: PoolClient, sql: string): Promise<WalPosition | undefined> {
  const row = (await c.query<Record<string, string | null>>(sql)).rows[0];
  return parseWalPosition(row ? Object.values(row)[0] : undefined);
}
