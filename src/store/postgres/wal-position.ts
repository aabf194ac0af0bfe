/**
 * A position in PostgreSQL's write-ahead log (`pg_lsn`, printed `X/Y` in hex) as a bigint, so positions from the
 * primary (`pg_current_wal_lsn()`) and a standby (`pg_last_wal_replay_lsn()`) compare in JS.
 */
export type WalPosition = bigint;

const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** `0/16B3748` → 23803720n; undefined for NULL (a server that is not a standby has no replay position). */
export function parseWalPosition(text: string | null | undefined): WalPosition | undefined {
  if (text === null || text === undefined) return undefined;
  const match = LSN.exec(text.trim());
  if (!match) throw new Error(`Not a PostgreSQL WAL position: ${JSON.stringify(text)}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export const formatWalPosition = (position: WalPosition): string =>
  `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
