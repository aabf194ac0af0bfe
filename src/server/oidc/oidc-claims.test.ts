import { describe, expect, it } from 'vitest';
import { oidcSchema } from '../../config/oidc-schema.ts';
import { OidcSignInError } from '../../errors/index.ts';
import { claimedUser } from './oidc-claims.ts';

const oidc = oidcSchema.parse({ issuer: 'https://idp.example', clientId: 'e', publicUrl: 'https://e.example' });
const withAdmin = { ...oidc, adminGroup: 'evident-admins' };

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return OidcSignInError.isInstance(error) ? error.failure : `other: ${String(error)}`;
  }
  return 'none';
};

describe('claimedUser', () => {
  it('names the user by the configured claim and takes the groups claim (a string is one group; duplicates go)', () => {
    expect(claimedUser({ preferred_username: 'alice', groups: ['legal', 'legal', 'hr'] }, oidc)).toEqual({
      name: 'alice',
      groups: ['legal', 'hr'],
    });
    expect(claimedUser({ preferred_username: 'bob', groups: 'sales' }, oidc).groups).toEqual(['sales']);
    expect(claimedUser({ preferred_username: 'bob' }, oidc).groups).toEqual([]);
    expect(
      claimedUser({ email: 'c@x.example', roles: ['a'] }, { ...oidc, userClaim: 'email', groupsClaim: 'roles' }),
    ).toEqual({ name: 'c@x.example', groups: ['a'] });
  });

  it('leaves groups and roles alone when groups do not come from the token', () => {
    const off = { ...withAdmin, groupsFromToken: false };
    expect(claimedUser({ preferred_username: 'a', groups: ['evident-admins', 'bad group'] }, off)).toEqual({
      name: 'a',
    });
  });

  it('decides the role only with an admin group', () => {
    expect(claimedUser({ preferred_username: 'a', groups: ['evident-admins'] }, withAdmin).roles).toEqual(['admin']);
    expect(claimedUser({ preferred_username: 'a', groups: ['x'] }, withAdmin).roles).toEqual(['member']);
    expect(claimedUser({ preferred_username: 'a', groups: ['evident-admins'] }, oidc).roles).toBeUndefined();
  });

  it('refuses a missing or non-string name, a reserved or invalid one, and groups that cannot be stored', () => {
    expect(failure(() => claimedUser({}, oidc))).toBe('user_claim_missing');
    expect(failure(() => claimedUser({ preferred_username: 42 }, oidc))).toBe('user_claim_missing');
    for (const name of ['evident:local', 'admin-key', 'local', 'has space', 'a'.repeat(129)])
      expect(
        failure(() => claimedUser({ preferred_username: name }, oidc)),
        name,
      ).toBe('user_name_invalid');
    for (const groups of [
      Array.from({ length: 257 }, (_, i) => `g${i}`),
      ['ok', 'with space'],
      ['a:b'],
      [42],
      { legal: true },
      ['x'.repeat(129)],
    ])
      expect(failure(() => claimedUser({ preferred_username: 'a', groups }, oidc))).toBe('groups_invalid');
  });
});
