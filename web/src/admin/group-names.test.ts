import { describe, expect, it } from 'vitest';
import type { AdminUser } from './admin-wire-types.ts';
import { groupsOfUsers, parseGroupNames, withGroup, withoutGroup } from './group-names.ts';

const user = (name: string, groups: string[]): AdminUser => ({
  name,
  groups,
  roles: ['member'],
  active: true,
  created_at: '2026-12-06T00:00:00.000Z',
});

describe('parseGroupNames (web admin)', () => {
  it('splits on commas and spaces, drops empties and repeats, keeps the order typed', () => {
    expect(parseGroupNames(' legal, hr  legal,,finance ')).toEqual(['legal', 'hr', 'finance']);
    expect(parseGroupNames('   ')).toEqual([]);
    expect(parseGroupNames('')).toEqual([]);
  });
});

describe('groupsOfUsers (web admin)', () => {
  it('lists each group once with its members sorted, groups sorted by name', () => {
    const groups = groupsOfUsers([
      user('dave', ['security', 'engineering']),
      user('bob', ['engineering']),
      user('alice', ['legal']),
      user('nobody', []),
    ]);
    expect(groups).toEqual([
      { group: 'engineering', members: ['bob', 'dave'] },
      { group: 'legal', members: ['alice'] },
      { group: 'security', members: ['dave'] },
    ]);
  });

  it('has no group that no user is in', () => {
    expect(groupsOfUsers([user('nobody', [])])).toEqual([]);
  });
});

describe('withGroup / withoutGroup (web admin)', () => {
  it('adds a group once and removes only the one named, leaving the input unchanged', () => {
    const groups = ['legal'];
    expect(withGroup(groups, 'hr')).toEqual(['legal', 'hr']);
    expect(withGroup(groups, 'legal')).toEqual(['legal']);
    expect(withoutGroup(['legal', 'hr'], 'legal')).toEqual(['hr']);
    expect(withoutGroup(['legal'], 'finance')).toEqual(['legal']);
    expect(groups).toEqual(['legal']);
  });
});
