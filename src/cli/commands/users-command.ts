import type { Command } from 'commander';
import { ValidationError } from '../../errors/index.ts';
import { withEvident, type GlobalOptions } from '../context.ts';
import { formatTable, wireJson, type CliIo } from '../io.ts';

const USER_NAME = /^[A-Za-z0-9._@-]+$/;
const GROUP_NAME = /^[^\s,:]+$/;

export function registerUsersCommand(program: Command, io: CliIo): void {
  const users = program.command('users').description('Principals: users and their groups');
  users
    .command('add')
    .description('Add a user, or update their groups')
    .argument('<name>', 'user name (matches acl entries user:<name>)')
    .option('--groups <a,b>', 'groups (match acl entries group:<name>)', '')
    .option('--admin', 'give the admin role (sees every document)')
    .action(async (name: string, flags: { groups: string; admin?: boolean }, command: Command) => {
      if (!USER_NAME.test(name)) {
        throw new ValidationError(`Invalid user name ${JSON.stringify(name)}.`, { hint: 'Use letters, digits, ".", "_", "@" or "-".' });
      }
      const groups = flags.groups.split(',').map((g) => g.trim()).filter(Boolean);
      const badGroup = groups.find((g) => !GROUP_NAME.test(g));
      if (badGroup) throw new ValidationError(`Invalid group name ${JSON.stringify(badGroup)}.`, { hint: 'Group names have no spaces, commas or colons.' });
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const user = await evident.store.upsertUser({ name, groups, roles: flags.admin ? ['admin'] : ['member'] });
        io.out(`user ${user.name}: groups ${user.groups.join(',') || '(none)'}, roles ${user.roles.join(',')}\n`);
      });
    });
  users
    .command('list')
    .description('List users')
    .option('--json', 'print as JSON')
    .action(async (flags: { json?: boolean }, command: Command) => {
      await withEvident(command.optsWithGlobals<GlobalOptions>(), {}, async (evident) => {
        const list = await evident.store.listUsers();
        if (flags.json) return io.out(wireJson(list));
        if (list.length === 0) return io.out('No users. Add one with `evident users add <name> --groups a,b`.\n');
        io.out(formatTable(['name', 'groups', 'roles'], list.map((u) => [u.name, u.groups.join(',') || '-', u.roles.join(',')])));
      });
    });
}
