import { useEffect, useState, type FormEvent } from 'react';
import { toApiError, type ApiError } from '../api/api-error.ts';
import type { EvidentApi } from '../api/evident-api.ts';
import type { Feedback, RateBody } from '../api/wire-types.ts';
import { ErrorNotice } from '../common/error-notice.tsx';

type Reason = NonNullable<RateBody['reason']>;

/** The reasons the server knows, as the form offers them (a Record: a reason added on the server fails to type-check here). */
const REASON_LABELS: Record<Reason, string> = {
  incorrect: 'Incorrect',
  unsupported: 'Not supported by its sources',
  incomplete: 'Incomplete',
  irrelevant: 'Does not answer the question',
  outdated: 'Outdated',
  should_have_answered: 'Should have answered',
  helpful: 'Helpful',
  other: 'Other',
};
const REASONS = Object.keys(REASON_LABELS) as Reason[];

/** Bounds of the free texts, as the server keeps them (the server refuses longer ones too). */
const MAX_CORRECTION = 4_000;
const MAX_COMMENT = 2_000;

/**
 * Thumbs up / down under an answer, saved through the API as the signed-in user's rating of its run. A thumbs-down
 * opens a short form (a reason, the right answer, a comment); the user's existing rating is shown and can be changed.
 */
export function FeedbackBar({ api, runId }: { api: EvidentApi; runId: string }) {
  const [saved, setSaved] = useState<Feedback | null | undefined>(undefined);
  const [draft, setDraft] = useState<{ reason: Reason | ''; correction: string; comment: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();

  useEffect(() => {
    const controller = new AbortController();
    setSaved(undefined);
    setDraft(undefined);
    api.myFeedback(runId, controller.signal).then(
      (found) => setSaved(found),
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(toApiError(failure));
      },
    );
    return () => controller.abort();
  }, [api, runId]);

  const save = async (body: RateBody) => {
    setBusy(true);
    setError(undefined);
    try {
      setSaved(await api.rate(runId, body));
      setDraft(undefined);
    } catch (failure) {
      setError(toApiError(failure));
    } finally {
      setBusy(false);
    }
  };

  const openDown = () =>
    setDraft({
      reason: saved?.rating === 'down' ? (saved.reason ?? '') : '',
      correction: saved?.rating === 'down' ? (saved.correction ?? '') : '',
      comment: saved?.rating === 'down' ? (saved.comment ?? '') : '',
    });

  const submitDown = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    void save({
      rating: 'down',
      ...(draft.reason ? { reason: draft.reason } : {}),
      ...(draft.correction.trim() ? { correction: draft.correction.trim() } : {}),
      ...(draft.comment.trim() ? { comment: draft.comment.trim() } : {}),
    });
  };

  const rating = saved?.rating;
  return (
    <div className="feedback-bar" data-testid="feedback-bar" data-run-id={runId}>
      <span className="muted">Was this answer right?</span>
      <button
        type="button"
        className={rating === 'up' ? 'thumb selected' : 'thumb'}
        aria-label="Thumbs up: the answer was right"
        aria-pressed={rating === 'up'}
        disabled={busy || saved === undefined}
        onClick={() => void save({ rating: 'up' })}
      >
        ✓ Right
      </button>
      <button
        type="button"
        className={rating === 'down' ? 'thumb selected' : 'thumb'}
        aria-label="Thumbs down: the answer was wrong"
        aria-pressed={rating === 'down'}
        disabled={busy || saved === undefined}
        onClick={openDown}
      >
        ✗ Wrong
      </button>
      {saved && !draft && (
        <span className="feedback-saved" data-testid="feedback-saved">
          You rated this {saved.rating === 'up' ? 'right' : 'wrong'}
          {saved.reason ? ` (${REASON_LABELS[saved.reason]})` : ''}
          {saved.correction ? `; correction: “${saved.correction}”` : ''}
        </span>
      )}
      {draft && (
        <form className="feedback-form" onSubmit={submitDown} aria-label="What was wrong">
          <label>
            Reason{' '}
            <select
              value={draft.reason}
              onChange={(event) => setDraft({ ...draft, reason: event.target.value as Reason | '' })}
            >
              <option value="">(none)</option>
              {REASONS.map((reason) => (
                <option key={reason} value={reason}>
                  {REASON_LABELS[reason]}
                </option>
              ))}
            </select>
          </label>
          <label>
            The right answer (optional)
            <textarea
              name="correction"
              maxLength={MAX_CORRECTION}
              value={draft.correction}
              onChange={(event) => setDraft({ ...draft, correction: event.target.value })}
            />
          </label>
          <label>
            Comment (optional)
            <textarea
              name="comment"
              maxLength={MAX_COMMENT}
              value={draft.comment}
              onChange={(event) => setDraft({ ...draft, comment: event.target.value })}
            />
          </label>
          <div className="feedback-actions">
            <button type="submit" disabled={busy}>
              Send
            </button>
            <button type="button" className="link-button" onClick={() => setDraft(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && <ErrorNotice error={error} onDismiss={() => setError(undefined)} />}
    </div>
  );
}
