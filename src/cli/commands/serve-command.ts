import type { Command } from 'commander';
import { isAdmin } from '../../domain/principal.ts';
import type { Evident } from '../../evident.ts';
import { createStderrLogger } from '../../logging/logger.ts';
import { intFlag, withEvident, type GlobalOptions } from '../context.ts';
import type { CliIo } from '../io.ts';
import { ensureSampleCorpus, SAMPLE_CORPUS_DIR } from '../sample-corpus.ts';

interface ServeFlags {
  port: string;
  host: string;
  sample?: boolean;
  watch: string[];
}

export function registerServeCommand(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('Run the HTTP API over the store (loopback only unless --host says otherwise)')
    .option('--port <n>', 'port (0 picks a free one)', '8787')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--sample', 'ingest the bundled sample corpus and its users first when the store is empty')
    .option(
      '--watch <dir>',
      'keep this folder in sync while serving, as `evident watch` does (repeatable)',
      (dir: string, dirs: string[]) => [...dirs, dir],
      [],
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const port = flags.port === '0' ? 0 : (intFlag('--port', flags.port) ?? 8787);
      const global = command.optsWithGlobals<GlobalOptions>();
      // The HTTP server loads with this command only, not with every CLI start.
      const [{ createApp }, { startServer }, { watchWhileServing }, { startCronScheduler }] = await Promise.all([
        import('../../server/create-app.ts'),
        import('../../server/start-server.ts'),
        import('./serve-watch.ts'),
        import('../../server/cron-scheduling.ts'),
      ]);
      await withEvident(global, {}, async (evident) => {
        await evident.assertEmbedderMatches();
        if (flags.sample) {
          const summary = await ensureSampleCorpus(evident);
          if (summary) io.err(`sample corpus: ${summary.added} documents ingested into ${evident.store.location}\n`);
        }
        await printFirstAdminKey(evident, io);
        const logger = createStderrLogger(global.debug ? 'debug' : 'warn');
        const agents = await evident.agents();
        // The sample corpus and the watched folders are document roots too, so their citations open their files.
        const documentRoots = [...(flags.sample ? [SAMPLE_CORPUS_DIR] : []), ...flags.watch];
        const server = await startServer(createApp({ evident, logger, agents, documentRoots }), {
          port,
          host: flags.host,
        });
        // Listen for signals before announcing the URL, so a client that stops us at once still gets a clean exit.
        const shutdown = nextShutdownSignal();
        io.out(`Evident listening on ${server.url}\n`);
        const watcher = flags.watch.length > 0 ? watchWhileServing(evident, flags.watch, logger, io) : undefined;
        // Every server process schedules crons; the store lets exactly one of them run each tick.
        const scheduler = startCronScheduler(evident, agents.runs, logger);
        const signal = await shutdown;
        io.err(`${signal}: shutting down\n`);
        await watcher?.stop();
        await scheduler?.stop();
        // Runs still executing end `cancelled` (recorded) before the store closes.
        await agents.close();
        await server.close();
      });
    });
}

/**
 * On a first start without EVIDENT_ADMIN_KEY, creates a stored `admin` user and prints its key, so the admin routes
 * are usable at once. Later starts find that user and print nothing: the key is only ever shown once.
 */
async function printFirstAdminKey(evident: Evident, io: CliIo): Promise<void> {
  if (evident.config.adminKey) return;
  const admins = (await evident.store.listUsers()).filter((user) =>
    isAdmin({ id: user.name, groups: user.groups, roles: user.roles }),
  );
  if (admins.length > 0) return;
  await evident.store.upsertUser({ name: 'admin', groups: [], roles: ['admin'] });
  const { key } = await evident.store.createApiKey('admin');
  io.out(`Admin API key (shown once; more with \`evident keys create admin\`): ${key}\n`);
}

/** Resolves with the first SIGINT or SIGTERM, then stops listening for both. */
function nextShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
