import type { FeedbackRating, FeedbackReason } from '../../domain/feedback.ts';
import type { RunRecordStatus } from './run-log.ts';

export {
  FEEDBACK_BOUNDS,
  FEEDBACK_RATINGS,
  FEEDBACK_REASONS,
  type FeedbackRating,
  type FeedbackReason,
} from '../../domain/feedback.ts';

/** The most records one read returns. */
export const MAX_FEEDBACK_PAGE = 500;

/** What rating a run writes: one record per (run, rater); rating again replaces the rater's previous one. */
export interface FeedbackWrite {
  runId: string;
  /** Who rated: a user name (or a reserved principal id). */
  rater: string;
  rating: FeedbackRating;
  reason?: FeedbackReason;
  comment?: string;
  /** The right answer, as the rater would have it. */
  correction?: string;
  /** The run's answer as the rater saw it when rating (null when the run left none); cut to `maxAnswerChars`. */
  answer: string | null;
}

/** A stored rating, with what it rates: the run's thread, agent, asker and question. */
export interface FeedbackRecord extends FeedbackWrite {
  /** Monotonic in creation order: paging is by it; rating again keeps it. */
  id: number;
  threadId: string;
  agent: string;
  /** Who asked the rated question (the run's user; the rater unless an admin rated someone's run). */
  user: string;
  question: string;
  /** How the rated run ended (`answered` or `refused` when it was rated). */
  runStatus: RunRecordStatus;
  createdAt: string;
  updatedAt: string;
}

/** A filtered page of feedback, newest first (by creation). */
export interface FeedbackQuery {
  agent?: string;
  rating?: FeedbackRating;
  /** Only this rater's feedback. */
  rater?: string;
  runId?: string;
  /** ISO times, inclusive, on the last update. */
  since?: string;
  until?: string;
  /** true: only feedback with a correction; false: only feedback without one. */
  hasCorrection?: boolean;
  /** Keyset paging: records with an id below this (the previous page's last id). */
  beforeId?: number;
  /** At most `MAX_FEEDBACK_PAGE`. */
  limit: number;
}

/** One agent's feedback tally. */
export interface FeedbackCounts {
  agent: string;
  up: number;
  down: number;
  withCorrection: number;
}

/**
 * Ratings of runs' answers. A rating belongs to its run: deleting the run's thread deletes it. Who may rate is decided
 * above the port (the rater must be able to read the run at that moment); the port enforces the bounds and one
 * record per (run, rater).
 */
export interface FeedbackStore {
  /**
   * Records the rater's rating of a run, replacing their previous one (its `id` and `createdAt` stay). Fails with
   * `not_found` when the run does not exist, `invalid_input` for a field out of bounds.
   */
  putFeedback(write: FeedbackWrite): Promise<FeedbackRecord>;
  /** The rater's rating of the run, if any. */
  getFeedback(runId: string, rater: string): Promise<FeedbackRecord | undefined>;
  /** Withdraws the rater's rating of the run; false when there was none. */
  deleteFeedback(runId: string, rater: string): Promise<boolean>;
  /** The records matching the filters, newest first, at most `query.limit`. */
  listFeedback(query: FeedbackQuery): Promise<FeedbackRecord[]>;
  /** Per agent, how many ratings are up, down, and carry a correction (agents without feedback are absent). */
  countFeedback(): Promise<FeedbackCounts[]>;
}
