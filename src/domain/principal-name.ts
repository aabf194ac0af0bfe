import { ValidationError } from '../errors/index.ts';
import { RESERVED_ID_MARK } from './principal.ts';

/** Bounds of a stored user: names and groups end up in ACL keys, SQL filters and every run's principal. */
export const MAX_USER_NAME_CHARS = 128;
export const MAX_GROUP_NAME_CHARS = 128;
export const MAX_USER_GROUPS = 256;

// No colon in either: `user:<name>` and `group:<name>` ACL entries split on the first one, and a colon marks the
// reserved principal ids (RESERVED_ID_MARK), which no user may take.
const USER_NAME = /^[A-Za-z0-9._@-]+$/;
const GROUP_NAME = /^[^\s,:]+$/;

/**
 * The ids the operator identities had before they moved into the reserved namespace (`local`, `admin-key`): threads
 * and memories stored under them still carry them, so a user so named would own those.
 */
const FORMER_OPERATOR_IDS = new Set(['local', 'admin-key']);

/** How a name is quoted back in an error: bounded, whatever was sent. */
const shown = (text: string) => JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);

/** Why `name` cannot be a user's name, or undefined when it can. */
export function userNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'a user needs a non-empty name';
  if (name.length > MAX_USER_NAME_CHARS) return `a user name has at most ${MAX_USER_NAME_CHARS} characters`;
  if (name.includes(RESERVED_ID_MARK))
    return 'a colon marks the identities Evident reserves (the CLI operator, the admin key), which no user may take';
  if (!USER_NAME.test(name)) return 'use letters, digits, ".", "_", "@" or "-"';
  if (FORMER_OPERATOR_IDS.has(name.toLowerCase()))
    return `"${name}" is reserved: the CLI operator or the admin key acted under that name`;
  return undefined;
}

/** Why `group` cannot be a group name, or undefined when it can. */
export function groupNameProblem(group: string): string | undefined {
  if (group.length === 0 || group.length > MAX_GROUP_NAME_CHARS)
    return `a group name has 1 to ${MAX_GROUP_NAME_CHARS} characters`;
  if (!GROUP_NAME.test(group)) return 'group names have no spaces, commas or colons';
  return undefined;
}

/**
 * The one check of a user before it is stored: the CLI (`users add`), `POST /v1/users` and every store's
 * `upsertUser` go through it, so a reserved identity cannot be entered by any of them.
 */
export function assertValidUser(user: { name: string; groups: readonly string[] }): void {
  const problem = userNameProblem(user.name);
  if (problem)
    throw new ValidationError(`Invalid user name ${shown(user.name)}: ${problem}.`, { hint: 'Choose another name.' });
  if (user.groups.length > MAX_USER_GROUPS) {
    throw new ValidationError(`A user has at most ${MAX_USER_GROUPS} groups; ${user.groups.length} were given.`, {
      hint: 'Give fewer groups.',
    });
  }
  for (const group of user.groups) {
    const groupProblem = groupNameProblem(group);
    if (groupProblem)
      throw new ValidationError(`Invalid group name ${shown(group)}: ${groupProblem}.`, { hint: 'Rename the group.' });
  }
}
