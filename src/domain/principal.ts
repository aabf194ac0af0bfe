export type Role = 'admin' | 'member';

/** Who is asking. Every retrieval, memory and tool call takes one explicitly. */
export interface Principal {
  /** User name; `acl` entries `user:<id>` match it. */
  id: string;
  /** Group names; `acl` entries `group:<name>` match them. */
  groups: string[];
  roles: Role[];
}

/**
 * Principals that are no stored user have ids in a namespace no user can enter: they hold a colon, which user names
 * may not contain (`principal-name.ts`), so nobody is created as one of them and reads or continues their threads.
 */
export const RESERVED_ID_MARK = ':';

export const isReservedPrincipalId = (id: string): boolean => id.includes(RESERVED_ID_MARK);

/** The local operator of an embedded store: the CLI without `--as` or `--groups`. Sees every document. */
export const LOCAL_OPERATOR: Principal = { id: 'evident:local', groups: [], roles: ['admin'] };

/** Who `EVIDENT_ADMIN_KEY` acts as on the server: an admin that is no stored user. */
export const ADMIN_KEY_PRINCIPAL: Principal = { id: 'evident:admin-key', groups: [], roles: ['admin'] };

export const isAdmin = (principal: Principal): boolean => principal.roles.includes('admin');

/**
 * The ACL entries a principal matches (`user:bob`, `group:legal`), or `undefined` for an admin, who sees all.
 * A document with an empty ACL is visible to every principal.
 */
export function principalAclKeys(principal: Principal): string[] | undefined {
  if (isAdmin(principal)) return undefined;
  return [`user:${principal.id}`, ...principal.groups.map((group) => `group:${group}`)];
}
