import { groupNameProblem, MAX_USER_GROUPS } from '../domain/principal-name.ts';
import { ValidationError } from '../errors/index.ts';

/** Bounds of the directory's own fields: external ids and one change's member list. */
export const MAX_EXTERNAL_ID_CHARS = 256;
export const MAX_MEMBERS_PER_CHANGE = 10_000;

/** Checks an external id before it is stored. */
export function assertExternalId(externalId: string | null | undefined): void {
  if (externalId === undefined || externalId === null) return;
  if (externalId.length === 0 || externalId.length > MAX_EXTERNAL_ID_CHARS)
    throw new ValidationError(`An externalId has 1 to ${MAX_EXTERNAL_ID_CHARS} characters.`, {
      hint: 'Send a shorter externalId, or none.',
    });
}

/** Checks a group's display name: it is the group name ACL entries `group:<name>` match. */
export function assertGroupName(displayName: string): void {
  const problem = groupNameProblem(displayName);
  if (problem)
    throw new ValidationError(`Invalid group displayName: ${problem}.`, {
      hint: 'Send a displayName without spaces, commas or colons (map it to such a value in the provisioning client, e.g. the group object id or a mailNickname).',
    });
}

export function assertMemberCount(ids: readonly string[] | undefined): void {
  if (ids && ids.length > MAX_MEMBERS_PER_CHANGE)
    throw new ValidationError(`At most ${MAX_MEMBERS_PER_CHANGE} members per change; ${ids.length} were given.`, {
      hint: 'Send the members in several PATCH requests.',
    });
}

/** A user's groups with `name` added (once), refused past the per-user bound. */
export function withGroup(groups: readonly string[], name: string, user: string): string[] {
  if (groups.includes(name)) return [...groups];
  if (groups.length >= MAX_USER_GROUPS)
    throw new ValidationError(`${user} is in ${MAX_USER_GROUPS} groups already, the most a user may be in.`, {
      hint: 'Remove them from another group first.',
    });
  return [...groups, name];
}

export const withoutGroup = (groups: readonly string[], name: string): string[] => groups.filter((g) => g !== name);

/** A user's groups with `from` renamed to `to` (no duplicate when they were in both). */
export const renamedGroup = (groups: readonly string[], from: string, to: string): string[] => [
  ...new Set(groups.map((g) => (g === from ? to : g))),
];

export const unknownMember = (id: string): ValidationError =>
  new ValidationError(`No user with id ${JSON.stringify(id.slice(0, 64))} to make a member.`, {
    hint: 'Members are users of this directory: create the user first and use the id it returned.',
  });
