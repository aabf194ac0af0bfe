import { checkIdentifier } from '../domain/identifier.ts';
import { ValidationError } from '../errors/index.ts';
import type { CronCreate, CronQuery, CronSortField, CronTickOutcome } from './ports/cron-store.ts';

/** A page of crons: 10 unless asked, at most 1000. */
export const DEFAULT_CRON_PAGE = 10;
export const MAX_CRON_PAGE = 1000;
/** Ticks of history one listing returns at most. */
export const MAX_CRON_TICKS_PAGE = 1000;
/** Keys one listing may filter metadata on. */
const MAX_FILTER_KEYS = 16;
/** A metadata filter key: a JSON path component each backend can name without quoting problems. */
const FILTER_KEY = /^[A-Za-z0-9_.-]{1,128}$/;
/** A skip or failure reason as stored: bounded, whatever an error said. */
const MAX_REASON_CHARS = 1000;

/** Column of each sort field (the SDK's `next_run_date` is `next_run_at`). */
export const CRON_SORT_COLUMNS: Record<CronSortField, string> = {
  cron_id: 'cron_id',
  assistant_id: 'assistant_id',
  thread_id: 'thread_id',
  created_at: 'created_at',
  updated_at: 'updated_at',
  next_run_date: 'next_run_at',
};

export function validateCronCreate(cron: CronCreate, maxPerOwner: number): void {
  checkIdentifier('cron id', cron.cronId);
  checkIdentifier('user', cron.owner);
  checkIdentifier('assistant id', cron.assistantId);
  if (cron.threadId !== null) checkIdentifier('thread id', cron.threadId);
  if (!Number.isInteger(maxPerOwner) || maxPerOwner < 1)
    throw new ValidationError(`maxPerOwner must be a positive whole number, not ${maxPerOwner}.`);
}

/** The refusal of a cron beyond its owner's bound. */
export const tooManyCrons = (owner: string, max: number): ValidationError =>
  new ValidationError(`${owner} already has ${max} crons, the most one user may have.`, {
    hint: 'Delete a cron you no longer need (DELETE /runs/crons/<id>, or `evident crons delete`), or ask an operator to raise crons.maxPerUser.',
  });

/** The query's page (limit, offset), sort column and direction, and metadata filter, each bounded. */
export function cronQueryParts(query: CronQuery): {
  limit: number;
  offset: number;
  order: string;
  metadata: [string, string | number | boolean | null][];
} {
  const limit = query.limit ?? DEFAULT_CRON_PAGE;
  const offset = query.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CRON_PAGE)
    throw new ValidationError(`limit must be a whole number from 1 to ${MAX_CRON_PAGE}.`);
  if (!Number.isInteger(offset) || offset < 0) throw new ValidationError('offset must be a whole number from 0.');
  const column = CRON_SORT_COLUMNS[query.sortBy ?? 'created_at'];
  if (!column) throw new ValidationError(`Cannot sort crons by ${JSON.stringify(query.sortBy)}.`);
  const direction = (query.sortOrder ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
  const metadata = Object.entries(query.metadata ?? {});
  if (metadata.length > MAX_FILTER_KEYS)
    throw new ValidationError(`A cron search filters on at most ${MAX_FILTER_KEYS} metadata keys.`);
  for (const [key, value] of metadata) {
    if (!FILTER_KEY.test(key))
      throw new ValidationError(`${JSON.stringify(key.slice(0, 64))} cannot be a metadata filter key.`, {
        hint: 'Filter on keys of letters, digits, _ . - (at most 128).',
      });
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value))
      throw new ValidationError(`The metadata filter of ${key} must be text, a number, a boolean or null.`);
  }
  // The id breaks ties, so pages never overlap.
  return { limit, offset, order: `${column} ${direction}, cron_id ${direction}`, metadata };
}

export function validateTickLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CRON_TICKS_PAGE)
    throw new ValidationError(`limit must be a whole number from 1 to ${MAX_CRON_TICKS_PAGE}.`);
}

/** The outcome's reason as stored: at most 1000 characters. */
export const storedReason = (outcome: CronTickOutcome): string | null =>
  outcome.status === 'started' ? null : outcome.reason.slice(0, MAX_REASON_CHARS);
