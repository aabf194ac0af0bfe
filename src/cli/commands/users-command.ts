import type { Command } from 'commander';
import { userOutcome } from '../../audit/user-outcome.ts';
import { LOCAL_OPERATOR } from '../../domain/principal.ts';
import { assertValidUser } from '../../domain/principal-name.ts';
import { NotFoundError } from '../../errors/index.ts';
import { withEvident, type GlobalOptions } from '../context.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';
import { setUserActivity } from '../../store/user-activity.ts';

export function registerUsersCommand(program: Command, io: CliIo): void {
  const users = program.command('users').description('Principals: users and their groups');
  users
    .command('add')
    .description('Add a user, or update their groups')
    .argument('<name>', 'user name (matches acl entries user:<name>)')
    .option('--groups <a,b>', 'groups (match acl entries group:<name>)', '')
    .option('--admin', 'give the admin role (sees every document)')
    .action(async (name: string, flags: { groups: string; admin?: boolean }, command: Command) => {
      const groups = flags.groups
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean);
      // Checked before the store opens; the store's upsertUser runs the same check.
      assertValidUser({ name, groups });
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const existed = (await evident.store.getUser(name)) !== undefined;
        const user = await evident.store.upsertUser({ name, groups, roles: flags.admin ? ['admin'] : ['member'] });
        const action = existed ? 'user.update' : 'user.add';
        await evident.audit.admin({
          actor: LOCAL_OPERATOR,
          action,
          target: user.name,
          surface: 'cli',
          outcome: userOutcome(user),
        });
        io.out(`user ${user.name}: groups ${user.groups.join(',') || '(none)'}, roles ${user.roles.join(',')}\n`);
      });
    });
  for (const [verb, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    users
      .command(verb)
      .description(
        active
          ? 'Activate a user again: their keys work again'
          : "Deactivate a user: their keys and sessions stop at once, and they match no document's ACL",
      )
      .argument('<name>', 'user name')
      .action(async (name: string, _flags: unknown, command: Command) => {
        await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
          const user = await setUserActivity(evident.store, name, active);
          if (!user) throw new NotFoundError('user', name.slice(0, 64), 'See `evident users list`.');
          await evident.audit.admin({
            actor: LOCAL_OPERATOR,
            action: active ? 'user.activate' : 'user.deactivate',
            target: user.name,
            surface: 'cli',
          });
          io.out(`user ${user.name}: ${user.active ? 'active' : 'inactive'}\n`);
        });
      });
  }
  users
    .command('list')
    .description('List users')
    .option('--json', 'print as JSON')
    .action(async (flags: { json?: boolean }, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const list = await evident.store.listUsers();
        if (flags.json) return io.out(wireJson(list));
        if (list.length === 0) return io.out('No users. Add one with `evident users add <name> --groups a,b`.\n');
        io.out(
          formatTable(
            ['name', 'groups', 'roles', 'active'],
            list.map((u) => [u.name, u.groups.join(',') || '-', u.roles.join(','), u.active ? 'yes' : 'no']),
          ),
        );
      });
    });
}
