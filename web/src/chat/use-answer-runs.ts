import type { Client } from '@langchain/langgraph-sdk';
import { useEffect, useState } from 'react';

/** How many of a thread's latest runs are looked at for the answers shown: far more than a conversation shows at once. */
const RUNS_READ = 100;

/**
 * The runs that answered on a thread (the LangGraph API's `success`: answered or refused), newest first: the run of
 * the n-th answer from the end of the conversation is the n-th of this list. Read again whenever the thread's
 * state is (`refresh` changes), so a new answer gets its run. Empty until read, or when it cannot be read.
 */
export function useAnswerRuns(client: Client, threadId: string | undefined, refresh: unknown): string[] {
  const [runIds, setRunIds] = useState<string[]>([]);
  useEffect(() => {
    setRunIds([]);
    if (!threadId) return;
    let current = true;
    client.runs.list(threadId, { limit: RUNS_READ }).then(
      (runs) => {
        if (current) setRunIds(runs.filter((run) => run.status === 'success').map((run) => run.run_id));
      },
      () => {
        // Without the runs, answers are shown without a rating bar; the conversation itself is unaffected.
      },
    );
    return () => {
      current = false;
    };
  }, [client, threadId, refresh]);
  return runIds;
}
