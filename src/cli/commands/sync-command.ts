import type { Command } from 'commander';
import { ConfigError, SourceError } from '../../errors/index.ts';
import { parseAclValue } from '../../ingest/acl-text.ts';
import { createStderrLogger } from '../../logging/logger.ts';
import type { Connector } from '../../sources/connector.ts';
import type { SyncReport } from '../../sources/sync-source.ts';
import type { WebBounds } from '../../sources/web/web-source.ts';
import { intFlag, withEvident, type GlobalOptions } from '../context.ts';
import { wireJson, type CliIo } from '../io.ts';
import { planText, reportJson, reportText } from '../sync-output.ts';

interface SyncFlags {
  sitemap?: string;
  dryRun?: boolean;
  acl?: string;
  json?: boolean;
  maxPages?: string;
  maxDepth?: string;
  maxPageBytes?: string;
  allowMassDelete?: boolean;
}

/** The web bounds given on the command line (`--max-pages`, `--max-depth`, `--max-page-bytes`). */
export function webBoundsOf(flags: Pick<SyncFlags, 'maxPages' | 'maxDepth' | 'maxPageBytes'>): Partial<WebBounds> {
  const maxPages = intFlag('--max-pages', flags.maxPages);
  const maxDepth = flags.maxDepth === '0' ? 0 : intFlag('--max-depth', flags.maxDepth);
  const maxBytes = intFlag('--max-page-bytes', flags.maxPageBytes);
  return {
    ...(maxPages ? { maxPages } : {}),
    ...(maxDepth !== undefined ? { maxDepth } : {}),
    ...(maxBytes ? { maxBytes } : {}),
  };
}

export function registerSyncCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('sync')
    .description(
      'Make the store match folders (adds, updates, ACL-only changes, deletions) or a web site by its sitemap',
    )
    .argument('[dirs...]', 'folders to sync; doc_id = path relative to the folder')
    .option(
      '--sitemap <url>',
      'sync the pages of this sitemap (same origin, robots.txt honoured); pages gone from it are deleted',
    )
    .option('--dry-run', 'print the plan and change nothing')
    .option(
      '--acl <entries>',
      'ACL for every document, e.g. group:legal,user:bob, or public (overrides sidecars and front matter)',
    )
    .option('--max-pages <n>', 'most pages (and sitemaps) one sitemap sync may list (default 1000)')
    .option('--max-depth <n>', 'levels of sitemap indexes followed (default 2)')
    .option('--max-page-bytes <bytes>', 'largest page fetched (default 5 MiB)')
    .option(
      '--allow-mass-delete',
      'apply deletions beyond ingest.maxDeleteShare, or of every document of a source that now lists none',
    )
    .option('--json', 'print the reports as JSON')
    .action(async (dirs: string[], flags: SyncFlags, command: Command) => {
      if (dirs.length === 0 && !flags.sitemap) {
        throw new ConfigError('Nothing to sync.', {
          hint: 'Give folders (evident sync docs/) or a sitemap (evident sync --sitemap https://example.com/sitemap.xml).',
        });
      }
      const acl = flags.acl === undefined ? undefined : parseAclValue(flags.acl, '--acl');
      const bounds = webBoundsOf(flags);
      const global = command.optsWithGlobals<GlobalOptions>();
      // The sources (and the document loaders behind them) load with this command only.
      const [{ folderSources, webSource, syncDepsOf }, { syncSource }] = await Promise.all([
        import('../../sources/open-sources.ts'),
        import('../../sources/sync-source.ts'),
      ]);
      await withEvident(global, {}, async (evident) => {
        await evident.assertEmbedderMatches();
        const logger = createStderrLogger(global.debug ? 'debug' : 'warn');
        const sources: Connector[] = folderSources(evident, dirs, logger, acl);
        if (flags.sitemap) sources.push(webSource(evident, 'sitemap', flags.sitemap, bounds, acl));
        const reports: SyncReport[] = [];
        for (const source of sources) {
          let report: SyncReport;
          try {
            report = await syncSource(source, syncDepsOf(evident, logger), {
              dryRun: Boolean(flags.dryRun),
              allowMassDelete: Boolean(flags.allowMassDelete),
            });
          } catch (error) {
            // One source that cannot be listed changes nothing of its own and does not stop the others.
            if (!SourceError.isInstance(error)) throw error;
            io.err(`error: ${error.toLine()}\n`);
            setExit(1);
            continue;
          }
          reports.push(report);
          if (report.failed > 0) setExit(1);
          if (!flags.json) io.out(flags.dryRun ? planText(report) : reportText(report));
        }
        if (flags.json) io.out(wireJson(reports.map(reportJson)));
      });
    });
}
