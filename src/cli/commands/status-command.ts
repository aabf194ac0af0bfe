import type { Command } from 'commander';
import { withEvident, type GlobalOptions } from '../context.ts';
import { wireJson, type CliIo } from '../io.ts';

export function registerStatusCommand(program: Command, io: CliIo): void {
  program
    .command('status')
    .description('Show the store, its contents and the configured models')
    .option('--json', 'print as JSON')
    .action(async (flags: { json?: boolean }, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const stats = await evident.store.stats();
        const status = {
          store: `${evident.store.backend} ${evident.store.location}`,
          documents: stats.documents,
          chunks: stats.chunks,
          tables: stats.tables,
          users: stats.users,
          vectors: stats.embedder ? `${stats.embedder.id} (dimension ${stats.embedder.dimension})` : 'none yet',
          embedder: `${evident.embedder.id} (dimension ${evident.embedder.dimension}${evident.embedder.semantic ? '' : '; offline lexical hashing, not semantic'})`,
          reranker: evident.reranker?.id ?? 'none',
          channels: evident.retrieval.channels.join(' + '),
        };
        if (flags.json) return io.out(wireJson(status));
        io.out(
          Object.entries(status)
            .map(([key, value]) => `${key.padEnd(10)} ${value}`)
            .join('\n') + '\n',
        );
      });
    });
}
