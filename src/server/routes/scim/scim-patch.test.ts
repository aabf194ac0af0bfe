import { describe, expect, it } from 'vitest';
import { appliedPatch, patchOperations } from './scim-patch.ts';

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const body = (...Operations: unknown[]) => ({ schemas: [PATCH], Operations });
const USER_ATTRIBUTES = ['userName', 'externalId', 'active'];
const GROUP_ATTRIBUTES = ['displayName', 'externalId', 'members'];
const user = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], id: 'u', userName: 'zoe', active: true };
const group = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
  id: 'g',
  displayName: 'legal',
  members: [
    { value: 'a', display: 'ann', type: 'User' },
    { value: 'b', display: 'ben', type: 'User' },
  ],
};
const patchUser = (...ops: unknown[]) => appliedPatch(user, patchOperations(body(...ops), USER_ATTRIBUTES, 10));
const patchGroup = (...ops: unknown[]) => appliedPatch(group, patchOperations(body(...ops), GROUP_ATTRIBUTES, 10));
const scimTypeOf = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as { details?: { scimType?: string } }).details?.scimType;
  }
};

describe('SCIM PATCH as providers send it', () => {
  it("reads Entra ID's and Okta's deactivations alike", () => {
    expect(patchUser({ op: 'Replace', path: 'active', value: 'False' }).active).toBe(false);
    expect(patchUser({ op: 'replace', value: { active: false } }).active).toBe(false);
    expect(
      patchUser({ op: 'replace', value: { 'urn:ietf:params:scim:schemas:core:2.0:User:active': 'false' } }).active,
    ).toBe(false);
    expect(
      patchUser({ op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:active', value: false }).active,
    ).toBe(false);
  });

  it('drops operations on attributes Evident does not keep, and keeps the resource untouched', () => {
    expect(
      patchUser(
        { op: 'replace', path: 'name.givenName', value: 'Zoe' },
        { op: 'add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Ops' },
        { op: 'replace', value: { displayName: 'Zoe', emails: [] } },
      ),
    ).toEqual(user);
  });

  it('adds members, and removes them by value filter or by value list whatever else their entries say', () => {
    const members = (g: { members?: { value: string }[] }) => (g.members ?? []).map((m) => m.value);
    expect(members(patchGroup({ op: 'Add', path: 'members', value: [{ value: 'c', display: 'cy' }] }))).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(members(patchGroup({ op: 'Remove', path: 'members[value eq "a"]' }))).toEqual(['b']);
    expect(members(patchGroup({ op: 'remove', path: 'members', value: [{ value: 'b' }] }))).toEqual(['a']);
    expect(members(patchGroup({ op: 'remove', path: 'members' }))).toEqual([]);
    expect(members(patchGroup({ op: 'replace', path: 'members', value: [{ value: 'z' }] }))).toEqual(['z']);
    expect(patchGroup({ op: 'replace', value: { id: 'g', displayName: 'counsel' } }).displayName).toBe('counsel');
  });

  it('refuses what RFC 7644 does not allow, with the scimType it names', () => {
    const ops = (raw: unknown) => () => patchOperations(raw, USER_ATTRIBUTES, 3);
    expect(scimTypeOf(ops({ schemas: ['urn:other'], Operations: [{ op: 'add', path: 'active', value: true }] }))).toBe(
      'invalidSyntax',
    );
    expect(scimTypeOf(ops(body()))).toBe('invalidSyntax');
    expect(scimTypeOf(ops(body({ op: 'move', path: 'active' })))).toBe('invalidSyntax');
    expect(scimTypeOf(ops(body({ op: 'remove' })))).toBe('noTarget');
    expect(scimTypeOf(ops(body({ op: 'replace', value: 'x' })))).toBe('invalidValue');
    expect(scimTypeOf(ops(body({ op: 'replace', path: 'a'.repeat(513), value: 1 })))).toBe('invalidPath');
    expect(
      scimTypeOf(ops(body(...Array.from({ length: 4 }, () => ({ op: 'replace', path: 'active', value: true }))))),
    ).toBe('tooMany');
    expect(
      scimTypeOf(() =>
        patchOperations(body({ op: 'remove', path: 'members', value: [{ value: 'a"b' }] }), GROUP_ATTRIBUTES, 3),
      ),
    ).toBe('invalidValue');
  });
});
