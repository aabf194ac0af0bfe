import type { Command } from 'commander';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import type { CliIo } from '../io.ts';
import { agentOfThread, runAgent, runManagerOf } from '../agent-session.ts';
import { printRun } from '../run-output.ts';
import { formatStepLines } from '../step-lines.ts';

interface ForkFlags extends PrincipalFlags {
  llm?: string;
  json?: boolean;
}

/** `evident fork <thread> <checkpoint> ["<question>"]`: a new run from an earlier checkpoint; the old branch stays. */
export function registerForkCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('fork')
    .description(
      'Run again from an earlier checkpoint of a thread: a new question from the end of a run, or a replay from mid-run',
    )
    .argument('<thread>', 'thread id')
    .argument('<checkpoint>', 'checkpoint id (see `evident checkpoints <thread>`)')
    .argument('[question]', 'the question to ask from that checkpoint')
    .option('--as <user>', 'as this stored user (the thread must be theirs)')
    .option('--llm <provider:model>', 'chat model (env EVIDENT_LLM); offline strategies without one')
    .option('--json', 'print the answer contract and the run trace as JSON')
    .action(
      async (
        threadId: string,
        checkpointId: string,
        question: string | undefined,
        flags: ForkFlags,
        command: Command,
      ) => {
        await withEvident(
          command.optsWithGlobals<GlobalOptions>(),
          flags.llm ? { llm: flags.llm } : {},
          async (evident) => {
            await evident.assertEmbedderMatches();
            const principal = await principalFromFlags(evident, flags);
            const agent = await agentOfThread(evident, threadId);
            const action = { kind: 'fork' as const, checkpointId, ...(question === undefined ? {} : { question }) };
            const run = await runAgent(await runManagerOf(evident), {
              agent,
              threadId,
              principal,
              action,
              onStep: (event) => io.err(formatStepLines(event)),
            });
            const code = printRun(io, run, { json: Boolean(flags.json), extra: { forked_from: checkpointId } });
            if (code) setExit(code);
          },
        );
      },
    );
}
