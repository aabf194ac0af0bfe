import type { Evident } from '../../evident.ts';
import type { Logger } from '../../logging/logger.ts';
import { FolderWatcher } from '../../sources/folder-watcher.ts';
import { folderSources, syncDepsOf } from '../../sources/open-sources.ts';
import type { CliIo } from '../io.ts';
import { reportText } from '../sync-output.ts';

/** Interval of the full safety-net sync of `serve --watch`. */
const SERVE_WATCH_INTERVAL_MS = 300_000;

/**
 * `evident serve --watch <dir>`: the folders kept in sync beside the server (the first full sync runs after the
 * server listens, so it answers at once); what each sync changed goes to stderr, the server's log.
 */
export function watchWhileServing(evident: Evident, dirs: readonly string[], logger: Logger, io: CliIo): FolderWatcher {
  const watcher = new FolderWatcher(folderSources(evident, dirs, logger), syncDepsOf(evident, logger), {
    debounceMs: 500,
    intervalMs: SERVE_WATCH_INTERVAL_MS,
    pollMs: 2000,
    logger,
    onReport: (report) => {
      if (report.added + report.updated + report.aclUpdated + report.deleted + report.failed > 0)
        io.err(`watch: ${reportText(report)}`);
    },
  });
  watcher.start().then(
    (modes) =>
      io.err(
        `watching ${dirs.map((dir, i) => `${dir} (${modes[i] === 'events' ? 'file events' : 'polling'})`).join(', ')}\n`,
      ),
    (error: unknown) => logger.error('watch: could not start', { error: String(error) }),
  );
  return watcher;
}
