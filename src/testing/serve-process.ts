import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** The CLI the process tests start: `bin/evident.js` (the built package, as a user runs it). */
export const CLI = resolve(import.meta.dirname, '../../bin/evident.js');

/** `evident <args> serve --port 0` in a process of its own; resolves with its URL once it listens. */
export function startServeProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, ...args, 'serve', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((done, fail) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) done({ url, child });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) =>
      fail(new Error(`evident serve exited (${code ?? signal}) before listening: ${output}`)),
    );
  });
}
