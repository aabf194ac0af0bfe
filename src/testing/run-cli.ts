import { main } from '../cli/main.ts';
import type { CliIo } from '../cli/io.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output, as a non-terminal (line-based progress). */
export async function runCli(args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { out: (text) => void (stdout += text), err: (text) => void (stderr += text), isTty: false };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
