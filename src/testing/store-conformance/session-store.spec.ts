import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.ts';
import { expectRejects } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const later = (ms: number) => new Date(Date.now() + ms);

/** Browser sessions and one-time sign-in states (the session port). */
export function describeSessionStore(suite: ConformanceSuite): void {
  describe('sessions', () => {
    let store: Store;
    beforeEach(async () => {
      store = suite.store;
      await store.upsertUser({ name: 'zoe', groups: ['legal'] });
      await store.upsertUser({ name: 'yan', groups: ['hr'] });
    });

    it('opens a session whose token is shown once and maps back to it; the token is not kept', async () => {
      const { token, session } = await store.createSession({ user: 'zoe', via: 'key', ttlMs: 8 * HOUR, idleMs: HOUR });
      expect(token).toMatch(/^evs_[A-Za-z0-9_-]{43}$/);
      expect(session).toMatchObject({ user: 'zoe', via: 'key' });
      expect(session.id).not.toBe(token);
      expect(session.csrfToken.length).toBeGreaterThanOrEqual(32);
      expect(Date.parse(session.expiresAt) - Date.parse(session.createdAt)).toBe(8 * HOUR);
      expect(Date.parse(session.idleExpiresAt) - Date.parse(session.createdAt)).toBe(HOUR);
      expect(session.idToken).toBeUndefined();
      const found = await store.findSession(token);
      expect(found).toMatchObject({ id: session.id, user: 'zoe', csrfToken: session.csrfToken });
      expect(await store.findSession(`${token}x`)).toBeUndefined();
      expect(await store.findSession('')).toBeUndefined();
      expect(await store.findSession('x'.repeat(100_000))).toBeUndefined();
      const listed = await store.listSessions({ user: 'zoe', limit: 10 });
      expect(JSON.stringify(listed)).not.toContain(token);

      const oidc = await store.createSession({ user: 'yan', via: 'oidc', ttlMs: HOUR, idleMs: HOUR, idToken: 'a.b.c' });
      expect((await store.findSession(oidc.token))?.idToken).toBe('a.b.c');
      await expectRejects(store.createSession({ user: 'nobody', via: 'key', ttlMs: HOUR, idleMs: HOUR }), 'not_found');
      await expectRejects(
        store.createSession({ user: 'zoe', via: 'saml' as 'key', ttlMs: HOUR, idleMs: HOUR }),
        'invalid_input',
      );
      await expectRejects(store.createSession({ user: 'zoe', via: 'key', ttlMs: 0, idleMs: HOUR }), 'invalid_input');
      await expectRejects(
        store.createSession({ user: 'zoe', via: 'oidc', ttlMs: HOUR, idleMs: HOUR, idToken: 'x'.repeat(20_000) }),
        'invalid_input',
      );
    });

    it('refuses a session past its absolute end, or unused past its idle timeout; use moves the idle end', async () => {
      const { token } = await store.createSession({ user: 'zoe', via: 'key', ttlMs: 2 * HOUR, idleMs: 30 * MINUTE });
      expect(await store.findSession(token, later(20 * MINUTE))).toBeDefined();
      // Used at +20 min, so it lives until +50 min when unused.
      const used = await store.findSession(token, later(45 * MINUTE));
      expect(used).toBeDefined();
      expect(Date.parse(used?.lastSeenAt ?? '')).toBeGreaterThan(Date.now() + 44 * MINUTE);
      // Used at +45 min: unused for 31 minutes it has ended.
      expect(await store.findSession(token, later(76 * MINUTE))).toBeUndefined();

      const steady = await store.createSession({ user: 'zoe', via: 'key', ttlMs: HOUR, idleMs: 30 * MINUTE });
      for (const minutes of [20, 40, 59])
        expect(await store.findSession(steady.token, later(minutes * MINUTE))).toBeDefined();
      // Used every 20 minutes, it still ends at its absolute end.
      expect(await store.findSession(steady.token, later(61 * MINUTE))).toBeUndefined();
      expect((await store.listSessions({ user: 'zoe', limit: 10 })).sessions.map((s) => s.id)).toContain(
        (await store.findSession(steady.token))?.id,
      );
      expect(await store.sweepExpiredSessions(later(2 * HOUR))).toBeGreaterThanOrEqual(2);
      expect(await store.findSession(steady.token)).toBeUndefined();
    });

    it('revokes one session, or all of a user, at once', async () => {
      const a = await store.createSession({ user: 'zoe', via: 'key', ttlMs: HOUR, idleMs: HOUR });
      const b = await store.createSession({ user: 'zoe', via: 'oidc', ttlMs: HOUR, idleMs: HOUR });
      const c = await store.createSession({ user: 'yan', via: 'key', ttlMs: HOUR, idleMs: HOUR });
      const revoked = await store.revokeSession(a.session.id);
      expect(revoked).toMatchObject({ id: a.session.id, user: 'zoe' });
      expect(await store.revokeSession(a.session.id)).toBeUndefined();
      expect(await store.findSession(a.token)).toBeUndefined();
      expect(await store.findSession(b.token)).toBeDefined();
      expect(await store.revokeUserSessions('zoe')).toBe(1);
      expect(await store.findSession(b.token)).toBeUndefined();
      expect((await store.findSession(c.token))?.user).toBe('yan');
      expect(await store.revokeUserSessions('nobody')).toBe(0);
    });

    it('lists live sessions newest first, per user or all, a bounded page at a time', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push(
          (await store.createSession({ user: i % 2 ? 'yan' : 'zoe', via: 'key', ttlMs: HOUR, idleMs: HOUR })).session
            .id,
        );
      const first = await store.listSessions({ limit: 2 });
      expect(first.sessions.map((s) => s.id)).toEqual([ids[4], ids[3]]);
      expect(first.nextCursor).not.toBeNull();
      const second = await store.listSessions({ limit: 2, cursor: first.nextCursor ?? '' });
      expect(second.sessions.map((s) => s.id)).toEqual([ids[2], ids[1]]);
      const third = await store.listSessions({ limit: 2, cursor: second.nextCursor ?? '' });
      expect(third).toEqual({ sessions: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
      expect((await store.listSessions({ user: 'zoe', limit: 10 })).sessions.map((s) => s.id)).toEqual([
        ids[4],
        ids[2],
        ids[0],
      ]);
      expect((await store.listSessions({ user: 'nobody', limit: 10 })).sessions).toEqual([]);
      await expectRejects(store.listSessions({ limit: 0 }), 'invalid_input');
      await expectRejects(store.listSessions({ limit: 201 }), 'invalid_input');
      await expectRejects(store.listSessions({ limit: 5, cursor: "1' OR 1=1" }), 'invalid_input');
    });

    it("keeps a user's newest 50 sessions: opening one more ends the oldest", async () => {
      const first = await store.createSession({ user: 'zoe', via: 'key', ttlMs: HOUR, idleMs: HOUR });
      for (let i = 0; i < 50; i++) await store.createSession({ user: 'zoe', via: 'key', ttlMs: HOUR, idleMs: HOUR });
      expect(await store.findSession(first.token)).toBeUndefined();
      expect((await store.listSessions({ user: 'zoe', limit: 200 })).sessions).toHaveLength(50);
    });

    it('keeps sessions across close and reopen', async () => {
      const { token } = await store.createSession({ user: 'zoe', via: 'key', ttlMs: HOUR, idleMs: HOUR });
      store = await suite.reopen();
      expect((await store.findSession(token))?.user).toBe('zoe');
    });
  });

  describe('sign-in states', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });
    const state = (name: string, expiresAt = later(10 * MINUTE)) => ({
      state: name,
      nonce: `nonce-${name}`,
      codeVerifier: `verifier-${name}-${'v'.repeat(43)}`,
      returnTo: '/#/chat',
      expiresAt: expiresAt.toISOString(),
    });

    it('gives a state back once: a replay, an unknown state or an expired one gets nothing', async () => {
      const saved = state('s1');
      await store.saveSignInState(saved);
      await expectRejects(store.saveSignInState(saved), 'invalid_input');
      expect(await store.takeSignInState('s1')).toEqual({
        ...saved,
        expiresAt: new Date(saved.expiresAt).toISOString(),
      });
      expect(await store.takeSignInState('s1')).toBeUndefined();
      expect(await store.takeSignInState('unknown')).toBeUndefined();
      expect(await store.takeSignInState('')).toBeUndefined();

      await store.saveSignInState(state('s2'));
      expect(await store.takeSignInState('s2', later(11 * MINUTE))).toBeUndefined();
      // Taking an expired state still deletes it.
      expect(await store.takeSignInState('s2')).toBeUndefined();

      await store.saveSignInState(state('s3', later(-MINUTE)));
      await store.saveSignInState(state('s4'));
      expect(await store.sweepExpiredSessions()).toBe(1);
      expect((await store.takeSignInState('s4'))?.nonce).toBe('nonce-s4');
    });

    it('hands a state to one of many concurrent takers', async () => {
      await store.saveSignInState(state('race'));
      const taken = await Promise.all(Array.from({ length: 8 }, () => store.takeSignInState('race')));
      expect(taken.filter(Boolean)).toHaveLength(1);
    });

    it('bounds what a state holds', async () => {
      await expectRejects(store.saveSignInState({ ...state('long'), returnTo: 'x'.repeat(3000) }), 'invalid_input');
      await expectRejects(store.saveSignInState({ ...state('empty'), nonce: '' }), 'invalid_input');
      await expectRejects(store.saveSignInState({ ...state('date'), expiresAt: 'tomorrow' }), 'invalid_input');
      await expectRejects(store.saveSignInState(state('x'.repeat(600))), 'invalid_input');
    });
  });
}
