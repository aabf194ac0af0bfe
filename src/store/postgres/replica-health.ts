import pg from 'pg';
import type { PostgresTarget } from './connection.ts';
import { parseWalPosition, type WalPosition } from './wal-position.ts';

/**
 * The primary's WAL position as sampled over the last moments: a standby is within the lag bound when it has
 * replayed at least as far as the primary had written `maxLagMs` ago. Measured by position rather than by replay
 * timestamps, so a standby of an idle primary is not "behind" merely because nothing happened.
 */
export class PrimaryPositions {
  private readonly samples: { at: number; position: WalPosition }[] = [];

  add(at: number, position: WalPosition, keepMs: number): void {
    this.samples.push({ at, position });
    while (this.samples.length > 1 && (this.samples[1] as { at: number }).at <= at - keepMs) this.samples.shift();
  }

  /**
   * Whether `replayed` reaches the oldest sample at most `maxLagMs` old (the newest sample when none is that
   * recent): a sufficient proof that the standby's lag is within the bound, strict by up to one check interval.
   */
  reached(replayed: WalPosition, now: number, maxLagMs: number): boolean {
    const reference = this.samples.find((sample) => sample.at >= now - maxLagMs) ?? this.samples.at(-1);
    return reference === undefined || replayed >= reference.position;
  }
}

/** What a health check of a standby saw. */
export interface StandbyReading {
  inRecovery: boolean;
  replayed: WalPosition | undefined;
  /** `pg_control_system()`'s id of the cluster: a standby shares its primary's; undefined where it is not readable. */
  systemId: string | undefined;
}

/** Reads a server's cluster id; undefined when the role may not call `pg_control_system()`. */
export async function readSystemId(client: Pick<pg.ClientBase, 'query'>): Promise<string | undefined> {
  try {
    return (await client.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()')).rows[0]
      ?.id;
  } catch {
    return undefined;
  }
}

/**
 * One long-lived connection per standby for its health checks, separate from the read pool so that a pool busy
 * with reads never delays a check, with a short connect and query timeout. Any failure closes it; the next check
 * connects again.
 */
export class StandbyProbe {
  private client: pg.Client | undefined;
  private systemId: string | undefined;

  constructor(
    private readonly target: PostgresTarget,
    private readonly timeoutMs: number,
  ) {}

  async read(): Promise<StandbyReading> {
    try {
      if (!this.client) {
        const client = new pg.Client({
          connectionString: this.target.connectionString,
          connectionTimeoutMillis: this.timeoutMs,
          query_timeout: this.timeoutMs,
          application_name: 'evident-replica-check',
        });
        // A connection that dies between checks must not crash the process; the next check reconnects.
        client.on('error', () => undefined);
        this.client = client;
        await client.connect();
        this.systemId = await readSystemId(client);
      }
      const row = (
        await this.client.query<{ standby: boolean; replayed: string | null }>(
          'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
        )
      ).rows[0];
      return { inRecovery: row?.standby === true, replayed: parseWalPosition(row?.replayed), systemId: this.systemId };
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
