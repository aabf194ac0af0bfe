import type { Command } from 'commander';
import { LOCAL_OPERATOR, type Principal } from '../../domain/principal.ts';
import { NotFoundError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import type { CronService } from '../../runs/crons/cron-service.ts';
import { intFlag, principalFromFlags, withEvident, type GlobalOptions, type PrincipalFlags } from '../context.ts';
import { formatTable, terminalSafe, wireJson, type CliIo } from '../io.ts';

interface CronFlags extends PrincipalFlags {
  json?: boolean;
  limit?: string;
}

/** The crons of the store the CLI opened; the CLI reads, deletes and shows history, and creates none (the API does). */
async function cronServiceOf(evident: Evident): Promise<CronService> {
  // The schedule parser loads with this command only, not with every CLI start.
  const { CronService } = await import('../../runs/crons/cron-service.ts');
  return new CronService({
    store: evident.store,
    config: evident.config.crons,
    checkRun: () => {
      throw new Error('The CLI does not create crons.');
    },
  });
}

async function withCrons(
  command: Command,
  flags: PrincipalFlags,
  work: (crons: CronService, principal: Principal, evident: Evident) => Promise<void>,
): Promise<void> {
  await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
    await work(await cronServiceOf(evident), await principalFromFlags(evident, flags), evident);
  });
}

/** `evident crons list | delete <id> | history <id>`: scheduled runs, as `POST /runs/crons/search` and `GET /v1/crons/<id>/runs` show them. */
export function registerCronsCommand(program: Command, io: CliIo): void {
  const crons = program
    .command('crons')
    .description('List scheduled runs (crons), delete one, or show its tick history');
  crons
    .command('list', { isDefault: true })
    .description("List crons: a stored user's with --as, every user's otherwise (the store's operator)")
    .option('--as <user>', "this stored user's crons")
    .option('--limit <n>', 'at most this many (default 100, at most 1000)')
    .option('--json', 'print as JSON')
    .action(async (flags: CronFlags, command: Command) => {
      const limit = intFlag('--limit', flags.limit) ?? 100;
      await withCrons(command, flags, async (service, principal) => {
        const found = await service.search(principal, { limit: Math.min(limit, 1000), sortBy: 'created_at' });
        if (flags.json) return io.out(wireJson(found));
        if (found.length === 0) return io.out(`No crons for ${principal.id}.\n`);
        io.out(
          formatTable(
            ['cron', 'owner', 'assistant', 'thread', 'schedule', 'timezone', 'enabled', 'next run'],
            found.map((cron) => [
              cron.cronId,
              terminalSafe(cron.owner),
              terminalSafe(cron.assistantId),
              terminalSafe(cron.threadId ?? '(new each tick)'),
              terminalSafe(cron.schedule),
              terminalSafe(cron.timezone),
              cron.enabled ? 'yes' : 'no',
              cron.nextRunAt ?? '-',
            ]),
          ),
        );
      });
    });
  crons
    .command('delete')
    .description('Delete a cron and its history (its owner with --as; the store operator any cron)')
    .argument('<cron>', 'cron id')
    .option('--as <user>', 'as this stored user (the cron must be theirs)')
    .action(async (cronId: string, flags: CronFlags, command: Command) => {
      await withCrons(command, flags, async (service, principal, evident) => {
        if (principal.id === LOCAL_OPERATOR.id) {
          // The operator of the store deletes any cron, on behalf of its owner.
          const cron = await evident.store.getCron(cronId);
          if (!cron || !(await evident.store.deleteCron(cronId, cron.owner)))
            throw new NotFoundError('cron', cronId, 'List the crons with `evident crons list`.');
        } else await service.delete(principal, cronId);
        io.out(`Deleted cron ${cronId}.\n`);
      });
    });
  crons
    .command('history')
    .description("A cron's ticks, newest first: the run each started, or why it was skipped")
    .argument('<cron>', 'cron id')
    .option('--as <user>', 'as this stored user (the cron must be theirs)')
    .option('--limit <n>', 'at most this many ticks (default 50, at most 1000)')
    .option('--json', 'print as JSON')
    .action(async (cronId: string, flags: CronFlags, command: Command) => {
      const limit = Math.min(intFlag('--limit', flags.limit) ?? 50, 1000);
      await withCrons(command, flags, async (service, principal) => {
        const ticks = await service.history(principal, cronId, limit);
        if (flags.json) return io.out(wireJson(ticks));
        if (ticks.length === 0) return io.out(`Cron ${cronId} has not ticked yet.\n`);
        io.out(
          formatTable(
            ['tick', 'status', 'run', 'thread', 'reason'],
            ticks.map((tick) => [
              tick.tickAt,
              tick.status,
              tick.runId ?? '-',
              tick.threadId ?? '-',
              terminalSafe(tick.reason ?? ''),
            ]),
          ),
        );
      });
    });
}
