import type { Principal } from '../domain/index.ts';
import { UnauthorizedError } from '../errors/index.ts';
import type { PrincipalStore } from '../store/store.ts';

/**
 * The principal as the store knows it now (ARCHITECTURE §2: permissions are resolved at the moment of use, not
 * copied from the moment a run started): a stored user's groups and roles are read again, so a user removed from a
 * group, or an admin demoted, mid-run or while a run waits for an approval, loses that access at the next step.
 * A principal with no user record — the CLI operator, the admin key, an ad-hoc `--groups` member, an evaluation
 * user — keeps what it was given: there is nothing newer to read (users are changed, never deleted: a user the
 * directory deletes stays, inactive). A deactivated user matches nothing: what runs for them stops (401).
 */
export async function currentPrincipal(
  store: Pick<PrincipalStore, 'getUser'>,
  principal: Principal,
): Promise<Principal> {
  const user = await store.getUser(principal.id);
  if (user && !user.active) throw new UnauthorizedError();
  return user ? { id: user.name, groups: [...user.groups], roles: [...user.roles] } : principal;
}

const sameAccess = (a: Principal, b: Principal): boolean =>
  a.id === b.id &&
  a.groups.join('\u0000') === b.groups.join('\u0000') &&
  a.roles.join('\u0000') === b.roles.join('\u0000');

/** The state's principal refreshed from the store, and whether it changed (so the new one is written to the state). */
export async function refreshedPrincipal(
  store: Pick<PrincipalStore, 'getUser'>,
  principal: Principal | null,
): Promise<{ principal: Principal | null; changed: boolean }> {
  if (!principal) return { principal, changed: false };
  const now = await currentPrincipal(store, principal);
  return { principal: now, changed: !sameAccess(now, principal) };
}
