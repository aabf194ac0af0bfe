import type { Principal } from '../../domain/index.ts';
import type { DocumentStore, RunLog, RunRecord, RunRecordStatus } from '../../store/store.ts';
import { ReaderRedaction } from '../redact-for-reader.ts';
import { ValuesReplay } from '../values-delta.ts';

/** LangGraph's run statuses (what its webhooks carry); Evident's own outcome travels beside it as `outcome`. */
const LANGGRAPH_STATUS: Record<string, string> = {
  pending: 'pending',
  running: 'running',
  answered: 'success',
  refused: 'success',
  failed: 'error',
  interrupted: 'interrupted',
  cancelled: 'interrupted',
};

/** The run's events are read this many at a time to rebuild its last values. */
const PAGE = 1000;

/** The run's last values, rebuilt from its stored `values` events (deltas after the first). */
export async function lastValuesOf(
  store: Pick<RunLog, 'listRunEvents'>,
  runId: string,
): Promise<Record<string, unknown> | undefined> {
  const replay = new ValuesReplay();
  let values: Record<string, unknown> | undefined;
  let after = 0;
  for (;;) {
    const page = await store.listRunEvents(runId, after, PAGE);
    for (const event of page) if (event.event === 'values') values = replay.next(event.data);
    if (page.length < PAGE) return values;
    after = page.at(-1)?.seq ?? after;
  }
}

export interface WebhookPayloadInput {
  run: RunRecord;
  eventId: string;
  /** Who asked for the webhook, as the store knows them now: the values are what they may read today. */
  reader: Principal;
  /** A payload larger than this goes without its values. */
  maxBytes: number;
}

/**
 * The body of a run's webhook, LangGraph's way (the run's fields, `status`, `run_started_at`, `run_ended_at`,
 * `webhook_sent_at`, the final `values`, and `error` for a run that failed), plus Evident's `outcome`, `question` and
 * `event_id`. The values are the run's own last values (not the thread's, which a later run may have moved on),
 * redacted for the reader as a stream is: evidence from documents they cannot read now is withheld.
 */
export async function webhookPayload(
  store: Pick<RunLog, 'listRunEvents'> & Pick<DocumentStore, 'getChunks'>,
  input: WebhookPayloadInput,
  sentAt: Date,
): Promise<string> {
  const { run } = input;
  const stored = await lastValuesOf(store, run.runId);
  const values = stored === undefined ? null : await new ReaderRedaction(store, input.reader).apply(stored);
  const status: RunRecordStatus = run.status;
  const payload = {
    event: 'run.ended',
    event_id: input.eventId,
    run_id: run.runId,
    thread_id: run.threadId,
    assistant_id: run.agent,
    status: LANGGRAPH_STATUS[status] ?? status,
    outcome: status,
    question: run.question,
    metadata: {},
    multitask_strategy: (run as { multitaskStrategy?: string }).multitaskStrategy ?? 'reject',
    created_at: run.startedAt,
    updated_at: run.finishedAt ?? run.startedAt,
    run_started_at: run.startedAt,
    run_ended_at: run.finishedAt ?? null,
    webhook_sent_at: sentAt.toISOString(),
    ...(run.error ? { error: run.error } : {}),
  };
  const whole = JSON.stringify({ ...payload, values });
  if (Buffer.byteLength(whole) <= input.maxBytes) return whole;
  return JSON.stringify({ ...payload, values: null, values_omitted: 'too_large' });
}
