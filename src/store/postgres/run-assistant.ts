import type { PoolClient } from 'pg';
import type { RunStart } from '../ports/run-log.ts';

/** Records which assistant and version a run applies, in the transaction that inserts the run. */
export async function recordPostgresRunAssistant(
  c: PoolClient,
  run: Pick<RunStart, 'runId' | 'assistantId' | 'assistantVersion'>,
): Promise<void> {
  if (run.assistantId === undefined) return;
  await c.query('UPDATE runs SET assistant_id = $2, assistant_version = $3 WHERE run_id = $1', [
    run.runId,
    run.assistantId,
    run.assistantVersion ?? null,
  ]);
}
