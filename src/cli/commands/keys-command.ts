import type { Command } from 'commander';
import { LOCAL_OPERATOR } from '../../domain/principal.ts';
import { withEvident, type GlobalOptions } from '../context.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';

export function registerKeysCommand(program: Command, io: CliIo): void {
  const keys = program.command('keys').description("Users' API keys for the server (stored hashed)");
  keys
    .command('create')
    .description('Create an API key for a user and print it (it is shown this once)')
    .argument('<user>', 'a stored user')
    .action(async (user: string, _flags: unknown, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const created = await evident.store.createApiKey(user);
        await evident.audit.admin({
          actor: LOCAL_OPERATOR,
          action: 'key.create',
          target: created.id,
          surface: 'cli',
          outcome: `for ${user}`,
        });
        // The key alone on stdout so scripts can capture it; the note goes to stderr.
        io.out(`${created.key}\n`);
        io.err(`API key ${created.id} for ${user}: store it now, it cannot be shown again.\n`);
      });
    });
  keys
    .command('list')
    .description("List a user's keys (ids and dates only)")
    .argument('<user>', 'a stored user')
    .option('--json', 'print as JSON')
    .action(async (user: string, flags: { json?: boolean }, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const list = await evident.store.listApiKeys(user);
        if (flags.json) return io.out(wireJson(list));
        if (list.length === 0) return io.out(`No keys for ${user}. Create one with \`evident keys create ${user}\`.\n`);
        io.out(
          formatTable(
            ['id', 'user', 'created'],
            list.map((k) => [k.id, k.user, k.createdAt]),
          ),
        );
      });
    });
  keys
    .command('revoke')
    .description('Revoke a key by id; it stops working at once')
    .argument('<id>', 'key id from `evident keys list`')
    .action(async (id: string, _flags: unknown, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const revoked = await evident.store.revokeApiKey(id);
        if (revoked)
          await evident.audit.admin({
            actor: LOCAL_OPERATOR,
            action: 'key.revoke',
            target: id,
            surface: 'cli',
          });
        io.out(revoked ? `revoked ${id}\n` : `no key ${id}\n`);
      });
    });
}
