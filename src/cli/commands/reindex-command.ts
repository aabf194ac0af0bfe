import type { Command } from 'commander';
import { withEvident, type GlobalOptions } from '../context.ts';
import type { CliIo } from '../io.ts';

export function registerReindexCommand(program: Command, io: CliIo): void {
  program
    .command('reindex')
    .description('Rebuild every vector with the configured embedder (after changing --embedder)')
    .action(async (_flags: unknown, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const before = await evident.store.embedderInfo();
        let lastPercent = -1;
        const { chunks } = await evident.reindex(({ chunksDone, chunksTotal }) => {
          const percent = chunksTotal ? Math.floor((chunksDone * 100) / chunksTotal) : 100;
          if (percent !== lastPercent && (percent % 10 === 0 || io.isTty)) io.err(`reindex ${chunksDone}/${chunksTotal} chunks (${percent}%)\n`);
          lastPercent = percent;
        });
        io.out(`reindexed ${chunks} chunks: ${before ? `${before.id} → ` : ''}${evident.embedder.id} (dimension ${evident.embedder.dimension})\n`);
      });
    });
}
