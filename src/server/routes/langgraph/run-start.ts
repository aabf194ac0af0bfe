import { randomUUID } from 'node:crypto';
import type { Principal } from '../../../domain/index.ts';
import type { RunAction } from '../../../runs/run-request.ts';
import type { RunManager } from '../../../runs/run-manager.ts';
import type { RunRecord } from '../../../store/store.ts';
import { assistantVersionField } from './assistant-body.ts';
import { streamModesOf, type RunBody } from './run-body.ts';

/**
 * Starts the run a LangGraph run body asks for (`action` is what `runActionOf` read from it): on `threadId`, or, with
 * none, on a new thread (a stateless run; the thread is kept so the run can be audited).
 */
export function startLangGraphRun(
  runs: RunManager,
  principal: Principal,
  threadId: string | undefined,
  body: RunBody,
  action: RunAction,
): Promise<RunRecord> {
  return runs.start({
    agent: body.assistant_id,
    threadId: threadId ?? randomUUID(),
    principal,
    action,
    createThread: threadId === undefined || body.if_not_exists === 'create',
    surface: 'langgraph',
    ...assistantVersionField(body),
    ...(body.multitask_strategy ? { multitaskStrategy: body.multitask_strategy } : {}),
    streamModes: streamModesOf(body),
    ...(body.webhook ? { webhook: body.webhook } : {}),
  });
}
