import type { Client } from '@langchain/langgraph-sdk';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { toApiError, type ApiError } from '../api/api-error.ts';
import type { ApprovalDecision, PendingAction, AgentValues } from '../api/wire-types.ts';
import { pendingActionOf, runReducer, type RunView } from './run-view.ts';
import type { ThreadListItem } from './thread-list.tsx';

/** A thread as last checkpointed: its state and, when it waits for one, the approval it waits for. */
export interface ThreadSnapshot {
  threadId: string;
  values: AgentValues;
  pending: PendingAction | undefined;
}

export interface ThreadChat {
  threads: ThreadListItem[];
  threadId: string | undefined;
  snapshot: ThreadSnapshot | undefined;
  run: RunView | undefined;
  error: ApiError | undefined;
  startNewThread(): void;
  selectThread(threadId: string): void;
  ask(question: string): void;
  decide(decision: ApprovalDecision): void;
}

const STREAM_MODE: ('values' | 'updates' | 'custom' | 'messages')[] = ['values', 'updates', 'custom', 'messages'];

type StreamPayload =
  | { input: { messages: { role: 'user'; content: string }[] } }
  | { command: { resume: ApprovalDecision } };

/**
 * The chat's state over the LangGraph API: the user's threads, the selected thread's checkpointed state, and the
 * run streaming on it. A new thread is created with its first question, so "New thread" leaves no empty threads.
 */
export function useThreadChat(client: Client, assistantId: string | undefined): ThreadChat {
  const [threads, setThreads] = useState<ThreadListItem[]>([]);
  const [threadId, setThreadId] = useState<string | undefined>();
  const [snapshot, setSnapshot] = useState<ThreadSnapshot | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const [run, dispatch] = useReducer(runReducer, undefined);
  const streaming = useRef<AbortController | undefined>(undefined);

  // A thread belongs to one agent: the list shows the chosen agent's threads.
  const loadThreads = useCallback(async () => {
    if (!assistantId) return;
    try {
      setThreads(await client.threads.search<AgentValues>({ limit: 50, metadata: { assistant_id: assistantId } }));
    } catch (failure) {
      setError(toApiError(failure));
    }
  }, [assistantId, client]);

  const loadSnapshot = useCallback(
    async (id: string) => {
      try {
        const state = await client.threads.getState<AgentValues>(id);
        setSnapshot({
          threadId: id,
          values: state.values,
          pending: pendingActionOf(state.tasks.flatMap((task) => task.interrupts)),
        });
      } catch (failure) {
        setError(toApiError(failure));
      }
    },
    [client],
  );

  // On first show and whenever another agent is chosen: its threads, and a new thread to ask it in.
  useEffect(() => {
    dispatch({ type: 'cleared' });
    setThreadId(undefined);
    setSnapshot(undefined);
    void loadThreads();
    return () => streaming.current?.abort();
  }, [loadThreads]);

  const stream = useCallback(
    async (id: string, payload: StreamPayload, question: string | undefined) => {
      if (!assistantId) return;
      streaming.current?.abort();
      const controller = new AbortController();
      streaming.current = controller;
      dispatch({ type: 'started', question });
      try {
        const parts = client.runs.stream(id, assistantId, {
          ...payload,
          streamMode: STREAM_MODE,
          signal: controller.signal,
        });
        for await (const part of parts as AsyncIterable<{ event: string; data: unknown }>) {
          dispatch({ type: 'event', event: part.event, data: part.data });
        }
        dispatch({ type: 'closed' });
      } catch (failure) {
        if (controller.signal.aborted) return;
        dispatch({ type: 'failed', error: toApiError(failure) });
      }
      if (controller.signal.aborted) return;
      await Promise.all([loadSnapshot(id), loadThreads()]);
    },
    [assistantId, client, loadSnapshot, loadThreads],
  );

  const ask = useCallback(
    (question: string) => {
      if (!assistantId) return;
      setError(undefined);
      void (async () => {
        let id = threadId;
        if (!id) {
          try {
            id = (await client.threads.create({ metadata: { title: question, assistant_id: assistantId } })).thread_id;
          } catch (failure) {
            setError(toApiError(failure));
            return;
          }
          setThreadId(id);
          void loadThreads();
        }
        await stream(id, { input: { messages: [{ role: 'user', content: question }] } }, question);
      })();
    },
    [assistantId, client, loadThreads, stream, threadId],
  );

  const decide = useCallback(
    (decision: ApprovalDecision) => {
      if (!threadId) return;
      setError(undefined);
      void stream(threadId, { command: { resume: decision } }, undefined);
    },
    [stream, threadId],
  );

  const selectThread = useCallback(
    (id: string) => {
      streaming.current?.abort();
      dispatch({ type: 'cleared' });
      setError(undefined);
      setThreadId(id);
      setSnapshot(undefined);
      void loadSnapshot(id);
    },
    [loadSnapshot],
  );

  const startNewThread = useCallback(() => {
    streaming.current?.abort();
    dispatch({ type: 'cleared' });
    setThreadId(undefined);
    setSnapshot(undefined);
    setError(undefined);
  }, []);

  // A snapshot that arrives after another thread was chosen is not shown for it.
  const current = snapshot?.threadId === threadId ? snapshot : undefined;
  return { threads, threadId, snapshot: current, run, error, startNewThread, selectThread, ask, decide };
}
