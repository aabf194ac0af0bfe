import type { Command } from 'commander';
import { withEvident, type GlobalOptions } from '../context.ts';
import { wireJson, type CliIo } from '../io.ts';

export function registerReindexCommand(program: Command, io: CliIo): void {
  program
    .command('reindex')
    .description('Rebuild every vector with the configured embedder (after changing --embedder)')
    .option('--json', 'print the result as JSON')
    .action(async (flags: { json?: boolean }, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const before = await evident.store.embedderInfo();
        let lastPercent = -1;
        const { chunks } = await evident.reindex(({ chunksDone, chunksTotal }) => {
          const percent = chunksTotal ? Math.floor((chunksDone * 100) / chunksTotal) : 100;
          if (percent !== lastPercent && (percent % 10 === 0 || io.isTty))
            io.err(`reindex ${chunksDone}/${chunksTotal} chunks (${percent}%)\n`);
          lastPercent = percent;
        });
        const { id, dimension } = evident.embedder;
        if (flags.json)
          return io.out(wireJson({ chunks, embedder: { id, dimension }, previousEmbedder: before ?? null }));
        io.out(`reindexed ${chunks} chunks: ${before ? `${before.id} → ` : ''}${id} (dimension ${dimension})\n`);
      });
    });
}
