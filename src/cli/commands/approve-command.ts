import type { Command } from 'commander';
import { ValidationError } from '../../errors/index.ts';
import { principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import type { CliIo } from '../io.ts';
import { agentOfThread, runAgent, runManagerOf } from '../agent-session.ts';
import { printRun } from '../run-output.ts';
import { formatStepLines } from '../step-lines.ts';

interface ApproveFlags extends PrincipalFlags {
  reject?: boolean;
  edit?: string;
  llm?: string;
  json?: boolean;
}

function parseEdit(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError('--edit is not valid JSON.', {
      hint: `Pass the tool's arguments as a JSON object, e.g. --edit '{"text": "…"}'.`,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError("--edit must be a JSON object of the tool's arguments.", {
      hint: `For save_memory: --edit '{"text": "…"}'.`,
    });
  }
  return value as Record<string, unknown>;
}

export function registerApproveCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('approve')
    .description("Decide on the action a thread's run waits for (e.g. save_memory): approve, --edit or --reject")
    .argument('<thread>', 'the thread whose run waits for approval')
    .option('--reject', 'reject the action: nothing is done')
    .option('--edit <json>', 'run the action with these arguments instead, e.g. \'{"text": "…"}\'')
    .option('--as <user>', "decide as this stored user (the thread's owner, or an admin)")
    .option('--llm <provider:model>', 'chat model for the rest of the run (env EVIDENT_LLM)')
    .option('--json', 'print the finished run as JSON')
    .action(async (threadId: string, flags: ApproveFlags, command: Command) => {
      if (flags.reject && flags.edit !== undefined)
        throw new ValidationError('Use either --reject or --edit, not both.');
      const args = flags.edit === undefined ? undefined : parseEdit(flags.edit);
      await withEvident(
        command.optsWithGlobals<GlobalOptions>(),
        flags.llm ? { llm: flags.llm } : {},
        async (evident) => {
          const principal = await principalFromFlags(evident, flags);
          const decision = flags.reject ? ('reject' as const) : args ? ('edit' as const) : ('approve' as const);
          // The thread's own agent decides, through the run manager, which applies the approval policy as the API does.
          const agent = await agentOfThread(evident, threadId);
          const action = { kind: 'resume' as const, decision: { decision, ...(args ? { args } : {}) } };
          const run = await runAgent(await runManagerOf(evident), {
            agent,
            threadId,
            principal,
            action,
            onStep: (event) => io.err(formatStepLines(event)),
          });
          const code = printRun(io, run, { json: Boolean(flags.json) });
          if (code) setExit(code);
        },
      );
    });
}
