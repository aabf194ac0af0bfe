import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The real CLI entry point (`node bin/evident.js …`), as a user runs it. */
export const EVIDENT_BIN = resolve(import.meta.dirname, '../../bin/evident.js');

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running child process whose output a test can wait on, then kill. */
export interface Child {
  readonly pid: number | undefined;
  /** Everything written so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** How many times `pattern` occurs in stdout + stderr so far. */
  count(pattern: RegExp): number;
  /** Resolves with the first match of `pattern` on stdout or stderr (already written or to come); rejects when the child exits first or `timeoutMs` passes. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves once `pattern` has occurred `times` times; rejects as `waitFor` does. */
  waitForCount(pattern: RegExp, times: number, timeoutMs?: number): Promise<void>;
  /** Sends `signal` (default SIGKILL: no handler, no `finally`, no flush — a power cut or the OOM killer) unless it already ended. */
  kill(signal?: NodeJS.Signals): void;
  /** Whether our kill() ended it (rather than its own exit). */
  readonly killedByUs: boolean;
  readonly exited: Promise<ChildExit>;
}

/** Starts `command args` as a real child process with piped output (e.g. `node bin/evident.js serve --port 0`). */
export function startChild(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Child {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let killedByUs = false;
  let ended: ChildExit | undefined;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    changed();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    changed();
  });
  const exited = new Promise<ChildExit>((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      ended = { code, signal };
      changed();
      resolveExit(ended);
    });
  });
  const text = () => `${stdout}\n${stderr}`;
  /** Resolves with `probe()`'s first defined value, re-probing on every output; rejects on exit or timeout. */
  const until = <T>(probe: () => T | undefined, what: string, timeoutMs = 60_000) =>
    new Promise<T>((resolveProbe, reject) => {
      const finish = (error: Error | undefined, value?: T) => {
        clearTimeout(timer);
        listeners.delete(check);
        if (error) reject(error);
        else resolveProbe(value as T);
      };
      const check = () => {
        const value = probe();
        if (value !== undefined) finish(undefined, value);
        else if (ended)
          finish(new Error(`the child ended (${ended.signal ?? ended.code}) before ${what}:\n${text().slice(-2000)}`));
      };
      const timer = setTimeout(
        () => finish(new Error(`no ${what} within ${timeoutMs} ms; output so far:\n${text().slice(-2000)}`)),
        timeoutMs,
      );
      listeners.add(check);
      check();
    });
  const global = (pattern: RegExp) =>
    new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return {
    pid: child.pid,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    get killedByUs() {
      return killedByUs;
    },
    exited,
    count: (pattern) => [...text().matchAll(global(pattern))].length,
    waitFor: (pattern, timeoutMs) => until(() => pattern.exec(text()) ?? undefined, `${pattern}`, timeoutMs),
    waitForCount: async (pattern, times, timeoutMs) => {
      await until(
        () => ([...text().matchAll(global(pattern))].length >= times ? true : undefined),
        `${times} × ${pattern}`,
        timeoutMs,
      );
    },
    kill(signal = 'SIGKILL') {
      if (ended || child.exitCode !== null) return;
      killedByUs = true;
      child.kill(signal);
    },
  };
}

/**
 * When to kill: `delayMs` after `marker` has been seen `count` times on stdout/stderr, or, without a marker or with
 * count 0, `delayMs` after spawn (the marker is still counted, so a report says how far the child got).
 */
export interface KillPoint {
  marker?: RegExp;
  /** How many times the marker must have appeared (default 1; 0 = time from spawn). */
  count?: number;
  delayMs: number;
}

export interface KilledChild extends ChildExit {
  /** `killed` when our signal ended it; `exited` when it finished before the kill point was reached. */
  outcome: 'killed' | 'exited';
  stdout: string;
  stderr: string;
  /** Milliseconds from spawn to the kill (or to the exit). */
  elapsedMs: number;
  /** Markers seen before the kill. */
  markersSeen: number;
  /** Milliseconds from spawn to the first marker, when one was seen. */
  firstMarkerMs?: number;
}

/**
 * Starts a child, waits for the kill point and kills it (SIGKILL unless `signal` says otherwise); resolves once the
 * process is gone. `timeoutMs` kills a child that neither reached its point nor exited by then.
 */
export async function spawnAndKill(
  command: string,
  args: readonly string[],
  point: KillPoint,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; signal?: NodeJS.Signals; timeoutMs?: number } = {},
): Promise<KilledChild> {
  const started = performance.now();
  const child = startChild(command, args, options);
  let killedAt: number | undefined;
  let firstMarkerMs: number | undefined;
  const kill = () => {
    killedAt ??= performance.now();
    child.kill(options.signal);
  };
  const guard = options.timeoutMs ? setTimeout(kill, options.timeoutMs) : undefined;
  const { marker } = point;
  const forever = 24 * 3_600_000;
  if (marker)
    void child.waitFor(marker, forever).then(
      () => (firstMarkerMs = performance.now() - started),
      () => undefined,
    );
  let timer: NodeJS.Timeout | undefined;
  const reached =
    !marker || point.count === 0 ? Promise.resolve() : child.waitForCount(marker, point.count ?? 1, forever);
  reached.then(
    () => (timer = setTimeout(kill, Math.max(0, point.delayMs))),
    () => undefined,
  );
  const exit = await child.exited;
  clearTimeout(guard);
  clearTimeout(timer);
  const markersSeen = marker ? child.count(marker) : 0;
  return {
    ...exit,
    outcome: child.killedByUs && exit.signal ? 'killed' : 'exited',
    stdout: child.stdout,
    stderr: child.stderr,
    elapsedMs: (killedAt ?? performance.now()) - started,
    markersSeen,
    ...(firstMarkerMs === undefined ? {} : { firstMarkerMs }),
  };
}
