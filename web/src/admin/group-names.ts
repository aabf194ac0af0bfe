import type { AdminUser } from './admin-wire-types.ts';

/** The group names typed in a field (`legal, hr` or `legal hr`): trimmed, without empties or repeats, in order. */
export function parseGroupNames(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
}

export interface GroupMembers {
  group: string;
  members: string[];
}

/**
 * The groups as the users carry them: a group exists while some user is in it. Sorted by name; members sorted too.
 */
export function groupsOfUsers(users: readonly AdminUser[]): GroupMembers[] {
  const members = new Map<string, string[]>();
  for (const user of users) {
    for (const group of user.groups) {
      const list = members.get(group);
      if (list) list.push(user.name);
      else members.set(group, [user.name]);
    }
  }
  return [...members.entries()]
    .map(([group, names]) => ({ group, members: [...new Set(names)].sort() }))
    .sort((a, b) => a.group.localeCompare(b.group));
}

/** The user's groups with `group` added (unchanged when already there). */
export const withGroup = (groups: readonly string[], group: string): string[] =>
  groups.includes(group) ? [...groups] : [...groups, group];

/** The user's groups without `group`. */
export const withoutGroup = (groups: readonly string[], group: string): string[] => groups.filter((g) => g !== group);
