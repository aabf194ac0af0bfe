import type { Command } from 'commander';
import { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import type { CliIo } from '../io.ts';
import { printRun, withRagAgent } from '../rag-session.ts';
import { formatStepLines } from '../step-lines.ts';

interface AskFlags extends PrincipalFlags {
  thread?: string;
  llm?: string;
  history?: string;
  json?: boolean;
}

const historySchema = z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() }));

function parseHistory(text: string) {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError('--history is not valid JSON.', { hint: 'Pass a JSON array of {"role": "user"|"assistant", "content": "…"}.' });
  }
  const parsed = historySchema.safeParse(value);
  if (!parsed.success) throw new ValidationError('--history must be an array of {role, content} turns.', { hint: 'role is "user" or "assistant".' });
  return parsed.data;
}

export function registerAskCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('ask')
    .description('Ask the rag agent: an answer with numbered citations, or a refusal that says what is missing')
    .argument('<question>', 'the question')
    .option('--thread <id>', 'continue this conversation thread')
    .option('--as <user>', 'ask as this stored user (their groups apply)')
    .option('--groups <a,b>', 'ask as an ad-hoc member of these groups')
    .option('--llm <provider:model>', 'chat model (env EVIDENT_LLM); offline strategies without one')
    .option('--history <json>', 'seed the thread with earlier turns: [{"role":"user","content":"…"}, …]')
    .option('--json', 'print the answer contract and the run trace as JSON')
    .action(async (question: string, flags: AskFlags, command: Command) => {
      const history = flags.history === undefined ? undefined : parseHistory(flags.history);
      await withEvident(command.optsWithGlobals<GlobalOptions>(), flags.llm ? { llm: flags.llm } : {}, async (evident) => {
        await evident.assertEmbedderMatches();
        const principal = await principalFromFlags(evident, flags);
        await withRagAgent(evident, async (agent) => {
          const run = await agent.ask({
            question,
            principal,
            ...(flags.thread ? { threadId: flags.thread } : {}),
            ...(history ? { history } : {}),
            // Steps go to stderr as they complete, so stdout stays the answer (or pure JSON with --json).
            onStep: (event) => io.err(formatStepLines(event)),
          });
          const code = printRun(io, run, { json: Boolean(flags.json) });
          if (code) setExit(code);
        });
      });
    });
}
