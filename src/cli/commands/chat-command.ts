import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { RagRunResult } from '../../agent/rag-agent.ts';
import type { StepEvent } from '../../agent/core/step-event.ts';
import type { Principal } from '../../domain/index.ts';
import type { Evident } from '../../evident.ts';
import { assertAgent, DEFAULT_AGENT, runThroughRuntime, withAgentRuntime } from '../agent-session.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import type { CliIo } from '../io.ts';
import { formatStepLines } from '../step-lines.ts';
import { printRun, withRagAgent } from '../rag-session.ts';

interface ChatFlags extends PrincipalFlags {
  agent: string;
  thread?: string;
  llm?: string;
}

const EXIT_WORDS = new Set(['/exit', '/quit']);

/** Asks one question on the conversation's thread (a new one for the first question when none was given). */
type Ask = (question: string, threadId: string | undefined, onStep: (event: StepEvent) => void) => Promise<RagRunResult>;

/** Opens the chosen agent for the whole conversation: rag directly, any other agent through the run runtime. */
async function withAgent(evident: Evident, name: string, principal: Principal, work: (ask: Ask) => Promise<void>): Promise<void> {
  if (name === 'rag') {
    await withRagAgent(evident, (agent) => work((question, threadId, onStep) => agent.ask({ question, principal, ...(threadId ? { threadId } : {}), onStep })));
    return;
  }
  await withAgentRuntime(evident, async (runtime) => {
    assertAgent(runtime, name);
    await work((question, threadId, onStep) =>
      runThroughRuntime(runtime, { agent: name, principal, action: { kind: 'ask', question, history: [] }, onStep, ...(threadId ? { threadId } : {}) }),
    );
  });
}

/**
 * `evident chat`: a REPL on one thread. Questions are read line by line from stdin, so a pipe works as well as a
 * terminal; each answer prints with its numbered citations, and the next question continues the same thread.
 */
export function registerChatCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('chat')
    .description('Chat with an agent (rag by default) on one thread, one question per line (stdin; /exit or end of input to stop)')
    .option('--agent <name>', 'the agent: rag, react, controllable', DEFAULT_AGENT)
    .option('--thread <id>', 'continue this conversation thread')
    .option('--as <user>', 'ask as this stored user (their groups apply)')
    .option('--groups <a,b>', 'ask as an ad-hoc member of these groups')
    .option('--llm <provider:model>', 'chat model (env EVIDENT_LLM); offline strategies without one')
    .action(async (flags: ChatFlags, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), flags.llm ? { llm: flags.llm } : {}, async (evident) => {
        await evident.assertEmbedderMatches();
        const principal = await principalFromFlags(evident, flags);
        let threadId = flags.thread;
        await withAgent(evident, flags.agent, principal, async (ask) => {
          const interactive = Boolean(process.stdin.isTTY);
          const lines = createInterface({ input: process.stdin, terminal: interactive, crlfDelay: Infinity });
          try {
            if (interactive) io.err(`Chatting with ${flags.agent} as ${principal.id}${threadId ? ` on thread ${threadId}` : ''}. /exit to stop.\n> `);
            for await (const line of lines) {
              const question = line.trim();
              if (EXIT_WORDS.has(question)) break;
              if (question) {
                const run = await ask(question, threadId, (event) => io.err(formatStepLines(event)));
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
