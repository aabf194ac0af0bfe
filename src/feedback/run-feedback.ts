import type { FeedbackRating, FeedbackReason } from '../domain/feedback.ts';
import { checkIdentifier, isAdmin, type Principal } from '../domain/index.ts';
import { ForbiddenError, NotFoundError, RunNotFinishedError } from '../errors/index.ts';
import { readableThread } from '../runs/run-access.ts';
import type { RunManager } from '../runs/run-manager.ts';
import type { AuditSurface, FeedbackQuery, FeedbackRecord, RunRecord, Store } from '../store/store.ts';
import { readFeedbackPage, type FeedbackPage } from './feedback-json.ts';

/** What rating an answer takes, from any surface (bounds are checked by the store's rules). */
export interface RatingInput {
  rating: FeedbackRating;
  reason?: FeedbackReason | undefined;
  comment?: string | undefined;
  correction?: string | undefined;
}

export interface FeedbackDeps {
  store: Pick<
    Store,
    'getRun' | 'getThread' | 'putFeedback' | 'getFeedback' | 'deleteFeedback' | 'listFeedback' | 'appendAudit'
  >;
  /** Replays the run's events as the rater may read them today, for the answer they rated. */
  runs: Pick<RunManager, 'events'>;
}

/** Runs whose answer can be rated: one that answered, and one that refused (a refusal can be wrong too). */
const RATEABLE = new Set(['answered', 'refused']);
/** How long reading a finished run's stored events may take before the rating is kept without its answer. */
const ANSWER_READ_MS = 10_000;

const runNotFound = (runId: string) =>
  new NotFoundError('run', runId, 'Rate a run of one of your own threads (GET /threads/{thread_id}/runs lists them).');

/**
 * The run, if `principal` may read it now (its thread's owner, or an admin: `run-access.ts`). A run of someone
 * else's thread is not found, exactly as a run that does not exist: an id reveals nothing.
 */
export async function readableRunById(
  store: FeedbackDeps['store'],
  runId: string,
  principal: Principal,
): Promise<RunRecord> {
  checkIdentifier('run id', runId);
  const run = await store.getRun(runId);
  if (!run) throw runNotFound(runId);
  try {
    await readableThread(store, run.threadId, principal);
  } catch (error) {
    if (NotFoundError.isInstance(error)) throw runNotFound(runId);
    throw error;
  }
  return run;
}

/** The run's final answer text as `reader` may see it today (a withheld answer stays withheld); null when it left none. */
async function answerOf(runs: FeedbackDeps['runs'], runId: string, reader: Principal): Promise<string | null> {
  let answer: string | null = null;
  try {
    for await (const event of runs.events(runId, 0, AbortSignal.timeout(ANSWER_READ_MS), reader)) {
      if (event.event !== 'values') continue;
      const field = (event.data as { answer?: unknown } | null)?.answer;
      // The answer contract's text, or the notice a withheld answer was replaced with.
      const text = typeof field === 'string' ? field : (field as { answer?: unknown } | null | undefined)?.answer;
      if (typeof text === 'string') answer = text;
    }
  } catch (error) {
    // A finished run's log ends with its `end` event; one that does not is kept rated without its answer.
    if (!(error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))) throw error;
  }
  return answer;
}

/**
 * Records `principal`'s rating of a run they may read now (a run they may not read is not found), replacing their
 * previous one, with the answer as they see it; audited as `feedback.rate`.
 */
export async function rateRun(
  deps: FeedbackDeps,
  principal: Principal,
  runId: string,
  input: RatingInput,
  surface: AuditSurface,
): Promise<FeedbackRecord> {
  const run = await readableRunById(deps.store, runId, principal);
  if (!RATEABLE.has(run.status)) throw new RunNotFinishedError(runId, run.status);
  const answer = await answerOf(deps.runs, runId, principal);
  // Read again at the moment of writing: access lost while the answer was read refuses the rating.
  await readableRunById(deps.store, runId, principal);
  const record = await deps.store.putFeedback({
    runId,
    rater: principal.id,
    rating: input.rating,
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    ...(input.comment !== undefined ? { comment: input.comment } : {}),
    ...(input.correction !== undefined ? { correction: input.correction } : {}),
    answer,
  });
  await deps.store.appendAudit({
    actor: principal.id,
    action: 'feedback.rate',
    surface,
    runId,
    threadId: run.threadId,
    outcome: input.rating,
  });
  return record;
}

/** `principal`'s own rating of a run they may read now, or undefined. */
export async function myFeedback(
  deps: Pick<FeedbackDeps, 'store'>,
  principal: Principal,
  runId: string,
): Promise<FeedbackRecord | undefined> {
  await readableRunById(deps.store, runId, principal);
  return deps.store.getFeedback(runId, principal.id);
}

/** Withdraws `principal`'s rating of a run they may read now; false when they had none. Audited when one was withdrawn. */
export async function withdrawFeedback(
  deps: Pick<FeedbackDeps, 'store'>,
  principal: Principal,
  runId: string,
  surface: AuditSurface,
): Promise<boolean> {
  const run = await readableRunById(deps.store, runId, principal);
  const deleted = await deps.store.deleteFeedback(runId, principal.id);
  if (deleted)
    await deps.store.appendAudit({
      actor: principal.id,
      action: 'feedback.withdraw',
      surface,
      runId,
      threadId: run.threadId,
    });
  return deleted;
}

/** Everyone's feedback, filtered and paged: admins only (it names who asked what and what they said of it). */
export async function listFeedbackPage(
  deps: Pick<FeedbackDeps, 'store'>,
  principal: Principal,
  query: FeedbackQuery,
): Promise<FeedbackPage> {
  if (!isAdmin(principal)) throw new ForbiddenError('read feedback');
  return readFeedbackPage(deps.store, query);
}
