/** What a user change set, as the audit log records it: `groups=legal,hr roles=member`. */
export const userOutcome = (user: { groups: string[]; roles: string[] }): string =>
  `groups=${user.groups.join(',')} roles=${user.roles.join(',')}`;
