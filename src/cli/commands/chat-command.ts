import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { assertAgent, DEFAULT_AGENT, runAgent, runManagerOf } from '../agent-session.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import type { CliIo } from '../io.ts';
import type { StepEvent } from '../../domain/step-event.ts';
import { formatStepLines } from '../step-lines.ts';
import { printRun } from '../run-output.ts';

interface ChatFlags extends PrincipalFlags {
  agent: string;
  thread?: string;
  llm?: string;
}

const EXIT_WORDS = new Set(['/exit', '/quit']);

/**
 * `evident chat`: a REPL on one thread. Questions are read line by line from stdin, so a pipe works as well as a
 * terminal; each answer prints with its numbered citations, and the next question continues the same thread.
 */
export function registerChatCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('chat')
    .description(
      'Chat with an agent (rag by default) on one thread, one question per line (stdin; /exit or end of input to stop)',
    )
    .option('--agent <name>', 'the agent: rag, react, controllable', DEFAULT_AGENT)
    .option('--thread <id>', 'continue this conversation thread')
    .option('--as <user>', 'ask as this stored user (their groups apply)')
    .option('--groups <a,b>', 'ask as an ad-hoc member of these groups')
    .option('--llm <provider:model>', 'chat model (env EVIDENT_LLM); offline strategies without one')
    .action(async (flags: ChatFlags, command: Command) => {
      await withEvident(
        command.optsWithGlobals<GlobalOptions>(),
        flags.llm ? { llm: flags.llm } : {},
        async (evident) => {
          await evident.assertEmbedderMatches();
          const principal = await principalFromFlags(evident, flags);
          let threadId = flags.thread;
          const runs = await runManagerOf(evident);
          assertAgent(runs, flags.agent);
          const interactive = Boolean(process.stdin.isTTY);
          const lines = createInterface({ input: process.stdin, terminal: interactive, crlfDelay: Infinity });
          try {
            if (interactive)
              io.err(
                `Chatting with ${flags.agent} as ${principal.id}${threadId ? ` on thread ${threadId}` : ''}. /exit to stop.\n> `,
              );
            for await (const line of lines) {
              const question = line.trim();
              if (EXIT_WORDS.has(question)) break;
              if (question) {
                const onStep = (event: StepEvent) => io.err(formatStepLines(event));
                const action = { kind: 'ask' as const, question, history: [] };
                const run = await runAgent(runs, {
                  agent: flags.agent,
                  principal,
                  action,
                  onStep,
                  ...(threadId ? { threadId } : {}),
                });
                threadId = run.thread_id;
                const code = printRun(io, run);
                io.out('\n');
                if (code) setExit(code);
              }
              if (interactive) io.err('> ');
            }
          } finally {
            lines.close();
          }
        },
      );
    });
}
