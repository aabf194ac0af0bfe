import { execFile } from 'node:child_process';

/** How one tool run ended when it did not succeed. */
export type ToolFailure =
  | { kind: 'missing' }
  | { kind: 'timeout' }
  | { kind: 'output_too_large' }
  | { kind: 'failed'; message: string };

export type ToolResult = { ok: true; stdout: string; stderr: string } | { ok: false; failure: ToolFailure };

export interface ToolRun {
  timeoutMs: number;
  /** Bytes of stdout (and of stderr) kept; a tool that writes more is killed. */
  maxOutputBytes: number;
  /** The environment: `PATH` decides which binary runs. */
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * Runs `command args` directly (no shell, so no argument is ever interpreted), killed with SIGKILL when it overruns
 * its time or output; resolves with what happened and never rejects.
 */
export function runTool(command: string, args: readonly string[], run: ToolRun): Promise<ToolResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        timeout: run.timeoutMs,
        maxBuffer: run.maxOutputBytes,
        killSignal: 'SIGKILL',
        env: run.env,
        encoding: 'utf8',
        windowsHide: true,
        ...(run.cwd ? { cwd: run.cwd } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout, stderr });
        const { code, killed } = error as NodeJS.ErrnoException & { killed?: boolean };
        if (code === 'ENOENT') return resolve({ ok: false, failure: { kind: 'missing' } });
        if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          return resolve({ ok: false, failure: { kind: 'output_too_large' } });
        if (killed) return resolve({ ok: false, failure: { kind: 'timeout' } });
        const said = String(stderr).trim().split('\n').slice(-3).join(' ').slice(0, 300);
        resolve({ ok: false, failure: { kind: 'failed', message: said || error.message } });
      },
    );
  });
}
