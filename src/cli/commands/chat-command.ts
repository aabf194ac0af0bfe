import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import type { CliIo } from '../io.ts';
import { formatStepLines } from '../step-lines.ts';
import { printRun, withRagAgent } from '../rag-session.ts';

interface ChatFlags extends PrincipalFlags {
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
    .description('Chat with the rag agent on one thread, one question per line (stdin; /exit or end of input to stop)')
    .option('--thread <id>', 'continue this conversation thread')
    .option('--as <user>', 'ask as this stored user (their groups apply)')
    .option('--groups <a,b>', 'ask as an ad-hoc member of these groups')
    .option('--llm <provider:model>', 'chat model (env EVIDENT_LLM); offline strategies without one')
    .action(async (flags: ChatFlags, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), flags.llm ? { llm: flags.llm } : {}, async (evident) => {
        await evident.assertEmbedderMatches();
        const principal = await principalFromFlags(evident, flags);
        const interactive = Boolean(process.stdin.isTTY);
        const lines = createInterface({ input: process.stdin, terminal: interactive, crlfDelay: Infinity });
        let threadId = flags.thread;
        await withRagAgent(evident, async (agent) => {
          try {
            if (interactive) io.err(`Chatting as ${principal.id}${threadId ? ` on thread ${threadId}` : ''}. /exit to stop.\n> `);
            for await (const line of lines) {
              const question = line.trim();
              if (EXIT_WORDS.has(question)) break;
              if (question) {
                const run = await agent.ask({
                  question,
                  principal,
                  ...(threadId ? { threadId } : {}),
                  onStep: (event) => io.err(formatStepLines(event)),
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
        });
      });
    });
}
