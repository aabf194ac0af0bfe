import type { Command } from 'commander';
import type { RunManager } from '../../runs/run-manager.ts';
import type { Principal } from '../../domain/index.ts';
import { runManagerOf } from '../agent-session.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';

interface ListFlags extends PrincipalFlags {
  json?: boolean;
}

/** Runs `work` with the run manager and the principal the flags name (listing runs no node, so no model is needed). */
async function withRuns(
  command: Command,
  flags: PrincipalFlags,
  work: (runs: RunManager, principal: Principal) => Promise<void>,
): Promise<void> {
  await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
    const principal = await principalFromFlags(evident, flags);
    await work(await runManagerOf(evident), principal);
  });
}

const duration = (ms: number | undefined): string => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)}s`);

/** `evident threads`, `evident runs <thread>`, `evident checkpoints <thread>`: what a user's conversations hold. */
export function registerThreadsCommand(program: Command, io: CliIo): void {
  program
    .command('threads')
    .description('List your conversation threads: last question, run count, last activity')
    .option('--as <user>', "list this stored user's threads")
    .option('--json', 'print as JSON')
    .action(async (flags: ListFlags, command: Command) => {
      await withRuns(command, flags, async (runs, principal) => {
        const threads = await runs.threads(principal);
        if (flags.json) return io.out(wireJson(threads));
        if (threads.length === 0)
          return io.out(`No threads for ${principal.id}. Start one with \`evident ask "<question>"\`.\n`);
        io.out(
          formatTable(
            ['thread', 'runs', 'updated', 'last question'],
            threads.map((thread) => [thread.threadId, thread.runCount, thread.updatedAt, thread.lastQuestion]),
          ),
        );
      });
    });
  program
    .command('runs')
    .description("List a thread's runs with status and timings")
    .argument('<thread>', 'thread id')
    .option('--as <user>', 'as this stored user (the thread must be theirs)')
    .option('--json', 'print as JSON')
    .action(async (threadId: string, flags: ListFlags, command: Command) => {
      await withRuns(command, flags, async (runs, principal) => {
        const records = await runs.runs(threadId, principal);
        if (flags.json) return io.out(wireJson(records));
        if (records.length === 0) return io.out(`No runs recorded on thread ${threadId}.\n`);
        io.out(
          formatTable(
            ['run', 'status', 'started', 'duration', 'question'],
            records.map((run) => [run.runId, run.status, run.startedAt, duration(run.durationMs), run.question]),
          ),
        );
      });
    });
  program
    .command('checkpoints')
    .description("List a thread's checkpoints (every branch), to fork from with `evident fork`")
    .argument('<thread>', 'thread id')
    .option('--as <user>', 'as this stored user (the thread must be theirs)')
    .option('--json', 'print as JSON')
    .action(async (threadId: string, flags: ListFlags, command: Command) => {
      await withRuns(command, flags, async (runs, principal) => {
        const checkpoints = await runs.checkpoints(threadId, principal);
        if (flags.json) return io.out(wireJson(checkpoints));
        if (checkpoints.length === 0) return io.out(`No checkpoints on thread ${threadId}.\n`);
        io.out(
          formatTable(
            ['checkpoint', 'step', 'node', 'next', 'created', 'question'],
            checkpoints.map((c) => [
              c.checkpoint_id,
              c.step,
              c.node || '-',
              c.next.join(',') || '(end of run)',
              c.created_at,
              c.question,
            ]),
          ),
        );
      });
    });
}
