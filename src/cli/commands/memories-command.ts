import type { Command } from 'commander';
import { NotFoundError } from '../../errors/index.ts';
import { principalFromFlags, withEvident, type GlobalOptions } from '../context.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';

interface MemoriesFlags {
  as?: string;
  json?: boolean;
}

/** A user's long-term memories: always one user's own, whoever runs the command. */
export function registerMemoriesCommand(program: Command, io: CliIo): void {
  const memories = program.command('memories').description('Long-term memories: what a user asked Evident to remember');
  memories
    .command('list')
    .description("List a user's memories")
    .option('--as <user>', 'whose memories (default: the local operator)')
    .option('--json', 'print as JSON')
    .action(async (flags: MemoriesFlags, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const principal = await principalFromFlags(evident, flags.as ? { as: flags.as } : {});
        const list = await evident.store.listMemories(principal.id);
        if (flags.json) return io.out(wireJson(list));
        if (list.length === 0)
          return io.out(`No memories for ${principal.id}. Ask "Remember that …" and approve it to add one.\n`);
        io.out(
          formatTable(
            ['id', 'created', 'text'],
            list.map((memory) => [memory.id, memory.createdAt.slice(0, 19), memory.text]),
          ),
        );
      });
    });
  memories
    .command('rm')
    .description("Delete one of a user's memories")
    .argument('<id>', 'memory id (from `evident memories list`)')
    .option('--as <user>', 'whose memory (default: the local operator)')
    .action(async (id: string, flags: MemoriesFlags, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const principal = await principalFromFlags(evident, flags.as ? { as: flags.as } : {});
        // Another user's memory reads as missing: the message is the same whether or not the id exists.
        if (!(await evident.store.deleteMemory(principal.id, id))) {
          throw new NotFoundError(
            'memory',
            id,
            `List yours with \`evident memories list${flags.as ? ` --as ${flags.as}` : ''}\`.`,
          );
        }
        io.out(`deleted memory ${id}\n`);
      });
    });
}
