import type { Command } from 'commander';
import { agentMermaid, runManagerOf } from '../agent-session.ts';
import { withEvident, type GlobalOptions } from '../context.ts';
import type { CliIo } from '../io.ts';

export function registerGraphCommand(program: Command, io: CliIo): void {
  program
    .command('graph')
    .description("Print an agent's graph")
    .argument('<agent>', 'the agent: rag, react, controllable')
    .option('--mermaid', 'as a Mermaid flowchart (the default)')
    .action(async (name: string, _flags: { mermaid?: boolean }, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        io.out(`${(await agentMermaid(await runManagerOf(evident), name)).trimEnd()}\n`);
      });
    });
}
