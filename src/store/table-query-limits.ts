import { TABLE_QUERY_DEFAULTS } from '../config/tables-schema.ts';
import { QueryRejectedError, QueryTooLargeError, ValidationError } from '../errors/index.ts';
import { FairQueue } from './fair-queue.ts';
import type { TableQueryLimits } from './ports/document-store.ts';

/** Every bound of a table query, the byte bounds defaulted from the config's documented defaults. */
export type ResolvedTableQueryLimits = Required<TableQueryLimits>;

/** Validates the caller's limits and fills in the byte bounds it left out. */
export function resolveTableQueryLimits(limits: TableQueryLimits): ResolvedTableQueryLimits {
  const resolved = {
    maxRows: Math.floor(limits.maxRows),
    timeoutMs: limits.timeoutMs,
    maxResultBytes: limits.maxResultBytes ?? TABLE_QUERY_DEFAULTS.maxResultBytes,
    maxValueBytes: limits.maxValueBytes ?? TABLE_QUERY_DEFAULTS.maxValueBytes,
    maxMemoryBytes: limits.maxMemoryBytes ?? TABLE_QUERY_DEFAULTS.maxMemoryBytes,
    maxQueuedPerUser: limits.maxQueuedPerUser ?? TABLE_QUERY_DEFAULTS.maxQueuedPerUser,
  };
  const bytes = [resolved.maxResultBytes, resolved.maxValueBytes, resolved.maxMemoryBytes];
  if (
    !(resolved.maxRows >= 1) ||
    !Number.isSafeInteger(resolved.maxRows) ||
    !(resolved.timeoutMs > 0) ||
    !Number.isFinite(resolved.timeoutMs) ||
    !bytes.every((value) => Number.isSafeInteger(value) && value > 0)
  ) {
    throw new ValidationError(
      `Invalid table query limits ${JSON.stringify(limits)}: maxRows must be at least 1, timeoutMs a positive number, ` +
        'and maxResultBytes, maxValueBytes and maxMemoryBytes positive integers.',
    );
  }
  return resolved;
}

/**
 * What a value costs in a result: UTF-8 bytes of text, raw bytes of a blob, 8 for a number, 1 for null or a
 * boolean. The same rule as the SQLite query process's (`sqlite/table-query/child.cjs`), which stops producing at the cap;
 * this one decides.
 */
export function valueBytes(value: unknown): number {
  if (typeof value === 'string') return value.length <= 1024 ? Buffer.byteLength(value) : utf8Length(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === 'number' || typeof value === 'bigint') return 8;
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  // Anything else (a JSON value from a driver, a date) is counted by its JSON text.
  return utf8Length(JSON.stringify(value) ?? '');
}

/** UTF-8 length without copying a long string into a buffer. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3; // the rest of the BMP, and a lone surrogate (written as U+FFFD)
  }
  return bytes;
}

/** Counts a result as it is read: throws `query_too_large` at the first value or byte past the bounds. */
export class ResultBudget {
  private used = 0;

  constructor(private readonly limits: Pick<ResolvedTableQueryLimits, 'maxResultBytes' | 'maxValueBytes'>) {}

  get bytes(): number {
    return this.used;
  }

  columns(names: readonly string[]): void {
    for (const name of names) this.take(valueBytes(name));
  }

  row(values: readonly unknown[]): void {
    for (const value of values) {
      const size = valueBytes(value);
      if (size > this.limits.maxValueBytes) throw new QueryTooLargeError('value', this.limits.maxValueBytes);
      this.take(size);
    }
  }

  private take(size: number): void {
    this.used += size;
    if (this.used > this.limits.maxResultBytes) throw new QueryTooLargeError('result', this.limits.maxResultBytes);
  }
}

/** Checks a whole result against the bounds (what a backend read is counted again by, whatever its driver did). */
export function checkResultBytes(
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  limits: ResolvedTableQueryLimits,
): void {
  const budget = new ResultBudget(limits);
  budget.columns(columns);
  for (const row of rows) budget.row(row);
}

/**
 * The line table queries wait in, fair between principals (FairQueue): `workers` run at once (SQLite's one child; a
 * share of PostgreSQL's pool), one per principal, at most `tables.maxQueuedPerUser` waiting or running per principal.
 */
export const tableQueryQueue = (workers: number): FairQueue =>
  new FairQueue({
    workers,
    refuse: (pending) =>
      new QueryRejectedError(
        'query_rejected',
        `${pending} of your table queries are already waiting or running; this one was not queued.`,
        { hint: 'Send the next query when one of them has answered.' },
      ),
  });
