import type { RunStart } from '../ports/run-log.ts';
import type { SqliteConnection } from './connection.ts';

/** Records which assistant and version a run applies, in the transaction that inserts the run. */
export function recordSqliteRunAssistant(
  conn: SqliteConnection,
  run: Pick<RunStart, 'runId' | 'assistantId' | 'assistantVersion'>,
): void {
  if (run.assistantId === undefined) return;
  conn
    .stmt('UPDATE runs SET assistant_id = ?, assistant_version = ? WHERE run_id = ?')
    .run(run.assistantId, run.assistantVersion ?? null, run.runId);
}
