import type { Command } from 'commander';
import { openRagAgent } from '../../agent/rag-agent.ts';
import { ValidationError } from '../../errors/index.ts';
import { withEvident, type GlobalOptions } from '../context.ts';
import type { CliIo } from '../io.ts';

export function registerGraphCommand(program: Command, io: CliIo): void {
  program
    .command('graph')
    .description('Print an agent graph')
    .argument('<name>', 'the graph: rag')
    .option('--mermaid', 'as a Mermaid flowchart (the default)')
    .action(async (name: string, _flags: { mermaid?: boolean }, command: Command) => {
      if (name !== 'rag') throw new ValidationError(`Unknown graph ${JSON.stringify(name)}.`, { hint: 'Available: rag.' });
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const agent = openRagAgent(evident);
        try {
          io.out(`${agent.mermaid().trimEnd()}\n`);
        } finally {
          agent.close();
        }
      });
    });
}
