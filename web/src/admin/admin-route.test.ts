import { describe, expect, it } from 'vitest';
import { adminHref, adminRouteOf } from './admin-route.ts';

describe('adminRouteOf (web admin)', () => {
  it('opens the users for #/admin and for a section it does not know', () => {
    expect(adminRouteOf('#/admin')).toEqual({ section: 'users' });
    expect(adminRouteOf('#/admin/')).toEqual({ section: 'users' });
    expect(adminRouteOf('#/admin/nothing')).toEqual({ section: 'users' });
  });

  it('reads the section and the user it is opened for, decoded', () => {
    expect(adminRouteOf('#/admin/groups')).toEqual({ section: 'groups' });
    expect(adminRouteOf('#/admin/keys/alice')).toEqual({ section: 'keys', user: 'alice' });
    expect(adminRouteOf(adminHref('sessions', 'ann.o@x y'))).toEqual({ section: 'sessions', user: 'ann.o@x y' });
  });

  it('ignores a user that is not valid percent-encoding', () => {
    expect(adminRouteOf('#/admin/keys/%E0%A4%A')).toEqual({ section: 'keys' });
  });
});
