import type { Command } from 'commander';
import { openRagAgent, type RagAgent } from '../../agent/rag-agent.ts';
import type { Principal } from '../../domain/index.ts';
import type { Evident } from '../../evident.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { formatTable, json, type CliIo } from '../io.ts';

interface ListFlags extends PrincipalFlags {
  json?: boolean;
}

/** Opens the rag agent (no chat model: listing runs no node) for the principal the flags name. */
async function withAgent(
  command: Command,
  flags: PrincipalFlags,
  work: (agent: RagAgent, principal: Principal, evident: Evident) => Promise<void>,
): Promise<void> {
  await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
    const principal = await principalFromFlags(evident, flags);
    const agent = openRagAgent(evident);
    try {
      await work(agent, principal, evident);
    } finally {
      agent.close();
    }
  });
}

const duration = (ms: number | undefined): string => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)}s`);

/** `evident threads`, `evident runs <thread>`, `evident checkpoints <thread>`: what a user's conversations hold. */
export function registerThreadsCommand(program: Command, io: CliIo): void {
  program
    .command('threads')
    .description("List your conversation threads: last question, run count, last activity")
    .option('--as <user>', 'list this stored user\'s threads')
    .option('--json', 'print as JSON')
    .action(async (flags: ListFlags, command: Command) => {
      await withAgent(command, flags, async (agent, principal) => {
        const threads = await agent.threads(principal);
        if (flags.json) return io.out(json(threads));
        if (threads.length === 0) return io.out(`No threads for ${principal.id}. Start one with \`evident ask "<question>"\`.\n`);
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
      await withAgent(command, flags, async (agent, principal) => {
        const runs = await agent.runs(threadId, principal);
        if (flags.json) return io.out(json(runs));
        if (runs.length === 0) return io.out(`No runs recorded on thread ${threadId}.\n`);
        io.out(
          formatTable(
            ['run', 'status', 'started', 'duration', 'question'],
            runs.map((run) => [run.runId, run.status, run.startedAt, duration(run.durationMs), run.question]),
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
      await withAgent(command, flags, async (agent, principal) => {
        const checkpoints = await agent.checkpoints(threadId, principal);
        if (flags.json) return io.out(json(checkpoints));
        if (checkpoints.length === 0) return io.out(`No checkpoints on thread ${threadId}.\n`);
        io.out(
          formatTable(
            ['checkpoint', 'step', 'node', 'next', 'created', 'question'],
            checkpoints.map((c) => [c.checkpoint_id, c.step, c.node || '-', c.next.join(',') || '(end of run)', c.created_at, c.question]),
          ),
        );
      });
    });
}
