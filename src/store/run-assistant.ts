import type { RunRecord } from './ports/run-log.ts';

/** The assistant columns of a run's row (null for a run of an agent by name, or from before assistants). */
export interface RunAssistantColumns {
  assistant_id: string | null;
  assistant_version: number | null;
}

/** A run record's assistant fields, from its row. */
export const runAssistantOf = (row: RunAssistantColumns): Pick<RunRecord, 'assistantId' | 'assistantVersion'> => ({
  ...(row.assistant_id === null ? {} : { assistantId: row.assistant_id }),
  ...(row.assistant_version === null ? {} : { assistantVersion: row.assistant_version }),
});
