import type { OidcConfig } from '../../config/oidc-schema.ts';
import { groupNameProblem, MAX_USER_GROUPS, type Role, userNameProblem } from '../../domain/index.ts';
import { OidcSignInError } from '../../errors/index.ts';

/** Who a token names, as Evident stores them: the user's name, the groups, and the roles when the config decides them. */
export interface ClaimedUser {
  name: string;
  /** Unset with `oidc.groupsFromToken: false`: the stored groups stay. */
  groups?: string[];
  /** Set only with `oidc.adminGroup`: `admin` for its members, `member` otherwise. Unset: the stored roles stay. */
  roles?: Role[];
}

/** The user's name from the configured claim, or a typed refusal (missing, not a string, or not a valid user name). */
export function claimedUserName(claims: Record<string, unknown>, oidc: OidcConfig): string {
  const value = claims[oidc.userClaim];
  if (typeof value !== 'string' || value === '') throw new OidcSignInError('user_claim_missing');
  if (userNameProblem(value)) throw new OidcSignInError('user_name_invalid');
  return value;
}

/**
 * The groups from the configured claim: absent is no groups; a string is one group; otherwise a list of strings.
 * Bounded and validated as stored groups are (at most MAX_USER_GROUPS, each a valid group name), refused otherwise.
 */
export function claimedGroups(claims: Record<string, unknown>, oidc: OidcConfig): string[] {
  const value = claims[oidc.groupsClaim];
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length > MAX_USER_GROUPS) throw new OidcSignInError('groups_invalid');
  const groups: string[] = [];
  for (const group of list) {
    if (typeof group !== 'string' || groupNameProblem(group)) throw new OidcSignInError('groups_invalid');
    groups.push(group);
  }
  return [...new Set(groups)];
}

/** The user a validated ID token's claims stand for. */
export function claimedUser(claims: Record<string, unknown>, oidc: OidcConfig): ClaimedUser {
  const name = claimedUserName(claims, oidc);
  if (!oidc.groupsFromToken) return { name };
  const groups = claimedGroups(claims, oidc);
  if (oidc.adminGroup === undefined) return { name, groups };
  return { name, groups, roles: groups.includes(oidc.adminGroup) ? ['admin'] : ['member'] };
}
