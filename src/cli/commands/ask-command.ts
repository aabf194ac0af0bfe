import type { Command } from 'commander';
import { ValidationError } from '../../errors/index.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import type { CliIo } from '../io.ts';
import { DEFAULT_AGENT, runAgent, runManagerOf } from '../agent-session.ts';
import { printRun } from '../run-output.ts';
import { formatStepLines } from '../step-lines.ts';
import type { StepEvent } from '../../domain/step-event.ts';

interface AskFlags extends PrincipalFlags {
  agent: string;
  thread?: string;
  llm?: string;
  history?: string;
  json?: boolean;
}

async function parseHistory(text: string) {
  // zod is loaded with the command, not with the CLI: `evident --help` needs none of it.
  const { z } = await import('zod');
  const historySchema = z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() }));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError('--history is not valid JSON.', {
      hint: 'Pass a JSON array of {"role": "user"|"assistant", "content": "…"}.',
    });
  }
  const parsed = historySchema.safeParse(value);
  if (!parsed.success)
    throw new ValidationError('--history must be an array of {role, content} turns.', {
      hint: 'role is "user" or "assistant".',
    });
  return parsed.data;
}

export function registerAskCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('ask')
    .description(
      'Ask an agent (rag by default): an answer with numbered citations, or a refusal that says what is missing',
    )
    .argument('<question>', 'the question')
    .option('--agent <name>', 'the agent: rag, react, controllable', DEFAULT_AGENT)
    .option('--thread <id>', 'continue this conversation thread')
    .option('--as <user>', 'ask as this stored user (their groups apply)')
    .option('--groups <a,b>', 'ask as an ad-hoc member of these groups')
    .option('--llm <provider:model>', 'chat model (env EVIDENT_LLM); offline strategies without one')
    .option('--history <json>', 'seed the thread with earlier turns: [{"role":"user","content":"…"}, …]')
    .option('--json', 'print the answer contract and the run trace as JSON')
    .action(async (question: string, flags: AskFlags, command: Command) => {
      const history = flags.history === undefined ? undefined : await parseHistory(flags.history);
      await withEvident(
        command.optsWithGlobals<GlobalOptions>(),
        flags.llm ? { llm: flags.llm } : {},
        async (evident) => {
          // The same bound as over HTTP and MCP (limits.maxQuestionChars).
          const { assertQuestionWithin } = await import('../../server/request-limits.ts');
          assertQuestionWithin(question, evident.config.limits);
          await evident.assertEmbedderMatches();
          const principal = await principalFromFlags(evident, flags);
          // Routing a question reads the tables' values through the table-query process (SQLite): started now, it
          // comes up on another core while the agents load, instead of after them.
          if ((await evident.store.listTables(principal)).length > 0) evident.store.prepareTableQueries?.();
          // Steps go to stderr as they complete, so stdout stays the answer (or pure JSON with --json).
          const onStep = (event: StepEvent) => io.err(formatStepLines(event));
          const action = { kind: 'ask' as const, question, history: history ?? [] };
          const runs = await runManagerOf(evident);
          const run = await runAgent(runs, {
            agent: flags.agent,
            principal,
            action,
            onStep,
            ...(flags.thread ? { threadId: flags.thread } : {}),
          });
          const code = printRun(io, run, { json: Boolean(flags.json) });
          if (code) setExit(code);
        },
      );
    });
}
