import { readSse } from '../../src/testing/sse-reader.ts';

/** The questions the runs ask, in turn: answered ones, refused ones, and one a user's ACL turns into a refusal. */
export const QUESTIONS = [
  'What is the termination fee of contract CT-2024-0193?',
  'How many days do customers have to request a refund?',
  'What is the parental leave policy for employees in Brazil?',
  'Who must be told about a security incident, and how fast?',
  'What does the orders API return when an order is not found?',
] as const;

export const STREAM_MODES = ['values', 'updates', 'custom'] as const;

export interface RunSample {
  user: string;
  question: string;
  /** From sending the request to the first SSE event (`metadata`), ms. */
  firstEventMs: number;
  /** From sending the request to the `end` event, ms. */
  completeMs: number;
  /** The run's own duration as the server recorded it, ms. */
  serverMs: number | undefined;
  events: number;
  /** LangGraph's run status (`success` expected). */
  status: string;
  /** What went wrong, when the run did not stream whole or did not succeed. */
  problem?: string;
}

export interface LoadResult {
  samples: RunSample[];
  /** From the first request to the last `end`, ms. */
  wallMs: number;
}

const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

async function newThread(url: string, key: string): Promise<string> {
  const response = await fetch(`${url}/threads`, { method: 'POST', headers: headers(key), body: '{}' });
  if (!response.ok) throw new Error(`POST /threads answered ${response.status}`);
  return ((await response.json()) as { thread_id: string }).thread_id;
}

interface Streamed {
  sample: Omit<RunSample, 'serverMs' | 'status'>;
  runId: string | undefined;
}

/** A run whose request or stream broke is a failure to report, not the end of the benchmark. */
async function streamOne(
  url: string,
  user: string,
  key: string,
  threadId: string,
  question: string,
): Promise<Streamed> {
  try {
    return await streamOnce(url, user, key, threadId, question);
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const problem = `${String(error)}${cause ? ` (${String(cause)})` : ''}`;
    return {
      sample: { user, question, firstEventMs: Number.NaN, completeMs: Number.NaN, events: 0, problem },
      runId: undefined,
    };
  }
}

async function streamOnce(
  url: string,
  user: string,
  key: string,
  threadId: string,
  question: string,
): Promise<Streamed> {
  const began = performance.now();
  let firstEventMs = Number.NaN;
  const response = await fetch(`${url}/threads/${threadId}/runs/stream`, {
    method: 'POST',
    headers: headers(key),
    body: JSON.stringify({
      assistant_id: 'rag',
      input: { messages: [{ role: 'user', content: question }] },
      stream_mode: STREAM_MODES,
    }),
  });
  if (!response.ok)
    return {
      sample: {
        user,
        question,
        firstEventMs,
        completeMs: Number.NaN,
        events: 0,
        problem: `http ${response.status}: ${await response.text()}`,
      },
      runId: undefined,
    };
  const { events } = await readSse(response, (_event, read) => {
    if (read.events.length === 1) firstEventMs = performance.now() - began;
    return false;
  });
  const completeMs = performance.now() - began;
  const problem =
    events[0]?.event !== 'metadata'
      ? 'the stream did not start with metadata'
      : events.at(-1)?.event !== 'end'
        ? 'the stream did not end with end'
        : undefined;
  return {
    sample: { user, question, firstEventMs, completeMs, events: events.length, ...(problem ? { problem } : {}) },
    runId: (events[0]?.data as { run_id?: string } | undefined)?.run_id,
  };
}

/** The run as the server recorded it: its status and duration. */
async function recordedRun(
  url: string,
  key: string,
  threadId: string,
  runId: string | undefined,
): Promise<{ status: string; duration_ms?: number }> {
  if (!runId) return { status: 'unknown' };
  const response = await fetch(`${url}/threads/${threadId}/runs/${runId}`, { headers: headers(key) });
  return (await response.json()) as { status: string; duration_ms?: number };
}

/**
 * Starts `runs` streamed runs at once, each on a new thread of one of the users in turn, and reads every stream to
 * its end. Threads are created first and not timed: the figures are about runs.
 */
export async function runLoad(url: string, keys: Record<string, string>, runs: number): Promise<LoadResult> {
  const users = Object.entries(keys);
  const plan = Array.from({ length: runs }, (_, index) => {
    const [user, key] = users[index % users.length] as [string, string];
    return { user, key, question: QUESTIONS[index % QUESTIONS.length] as string };
  });
  const threads = await Promise.all(plan.map(({ key }) => newThread(url, key)));
  const began = performance.now();
  const streamed = await Promise.all(
    plan.map(({ user, key, question }, index) => streamOne(url, user, key, threads[index] as string, question)),
  );
  const wallMs = performance.now() - began;
  const samples = await Promise.all(
    streamed.map(async ({ sample, runId }, index) => {
      const run = await recordedRun(url, plan[index]?.key ?? '', threads[index] as string, runId);
      const problem = sample.problem ?? (run.status === 'success' ? undefined : `run ${run.status}`);
      return { ...sample, serverMs: run.duration_ms, status: run.status, ...(problem ? { problem } : {}) };
    }),
  );
  return { samples, wallMs };
}
