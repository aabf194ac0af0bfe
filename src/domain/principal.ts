export type Role = 'admin' | 'member';

/** Who is asking. Every retrieval, memory and tool call takes one explicitly. */
export interface Principal {
  /** User name; `acl` entries `user:<id>` match it. */
  id: string;
  /** Group names; `acl` entries `group:<name>` match them. */
  groups: string[];
  roles: Role[];
}

/** The local operator of an embedded store: the CLI without `--as` or `--groups`. Sees every document. */
export const LOCAL_OPERATOR: Principal = { id: 'local', groups: [], roles: ['admin'] };

export const isAdmin = (principal: Principal): boolean => principal.roles.includes('admin');

/**
 * The ACL entries a principal matches (`user:bob`, `group:legal`), or `undefined` for an admin, who sees all.
 * A document with an empty ACL is visible to every principal.
 */
export function principalAclKeys(principal: Principal): string[] | undefined {
  if (isAdmin(principal)) return undefined;
  return [`user:${principal.id}`, ...principal.groups.map((group) => `group:${group}`)];
}
