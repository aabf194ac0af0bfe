import type { Command } from 'commander';
import { parseAclValue } from '../../ingest/acl-text.ts';
import { createStderrLogger } from '../../logging/logger.ts';
import { intFlag, withEvident, type GlobalOptions } from '../context.ts';
import type { CliIo } from '../io.ts';
import { reportText, summaryLine } from '../sync-output.ts';

interface WatchFlags {
  acl?: string;
  debounceMs?: string;
  interval?: string;
  poll?: boolean;
}

export function registerWatchCommand(program: Command, io: CliIo): void {
  program
    .command('watch')
    .description(
      'Keep the store in sync with folders: a sync on file changes (debounced) and a full sync periodically; Ctrl-C stops',
    )
    .argument('<dirs...>', 'folders to watch')
    .option('--acl <entries>', 'ACL for every document (overrides sidecars and front matter)')
    .option('--debounce-ms <ms>', 'quiet time after file events before syncing (default 500)')
    .option('--interval <seconds>', 'full sync this often, as a safety net for lost events (default 300)')
    .option('--poll', 'poll the folders instead of file events (network mounts without inotify)')
    .action(async (dirs: string[], flags: WatchFlags, command: Command) => {
      const acl = flags.acl === undefined ? undefined : parseAclValue(flags.acl, '--acl');
      const debounceMs = intFlag('--debounce-ms', flags.debounceMs) ?? 500;
      const intervalMs = (intFlag('--interval', flags.interval) ?? 300) * 1000;
      const global = command.optsWithGlobals<GlobalOptions>();
      // The sources (and the document loaders behind them) load with this command only.
      const [{ FolderWatcher }, { folderSources, syncDepsOf }] = await Promise.all([
        import('../../sources/folder-watcher.ts'),
        import('../../sources/open-sources.ts'),
      ]);
      await withEvident(global, {}, async (evident) => {
        await evident.assertEmbedderMatches();
        const logger = createStderrLogger(global.debug ? 'debug' : 'warn');
        const sources = folderSources(evident, dirs, logger, acl);
        // The first full sync prints what it did even when nothing changed; later ones only when something did.
        let first = true;
        const watcher = new FolderWatcher(sources, syncDepsOf(evident, logger), {
          debounceMs,
          intervalMs,
          pollMs: Math.max(debounceMs, 2000),
          events: !flags.poll,
          logger,
          onReport: (report) => {
            const changed = report.added + report.updated + report.aclUpdated + report.deleted + report.failed > 0;
            // The time goes on the summary line, so each sync's lines read as a block ending with when it ran.
            const summary = summaryLine(report);
            if (first || changed)
              io.out(reportText(report).replace(summary, `${new Date().toISOString().slice(11, 19)} ${summary}`));
          },
        });
        const stopped = new Promise<string>((resolve) => {
          process.once('SIGINT', () => resolve('SIGINT'));
          process.once('SIGTERM', () => resolve('SIGTERM'));
        });
        const modes = await watcher.start();
        first = false;
        io.out(
          `watching ${dirs.map((dir, i) => `${dir} (${modes[i] === 'events' ? 'file events' : 'polling'})`).join(', ')}; a full sync every ${intervalMs / 1000} s; Ctrl-C to stop\n`,
        );
        const signal = await stopped;
        await watcher.stop();
        io.out(`stopped (${signal})\n`);
      });
    });
}
