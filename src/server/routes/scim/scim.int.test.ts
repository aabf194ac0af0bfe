import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSchema } from '../../../store/postgres/drop-store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../../testing/postgres-test-database.ts';
import { bjensenBody, expectScimError, keyFor, legalHits, patchOp } from '../../../testing/scim-test-client.ts';
import {
  SCIM_TEST_ADMIN_KEY,
  SCIM_TEST_TOKEN,
  startScimTestServer,
  type ScimTestServer,
} from '../../../testing/scim-test-server.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** A scripted SCIM client following RFC 7644's examples, and Entra ID's and Okta's request shapes. */
function describeScim(backend: string, open: () => Promise<ScimTestServer>): void {
  describe(`SCIM 2.0 on ${backend}`, () => {
    let server: ScimTestServer;
    beforeAll(async () => {
      server = await open();
    }, 120_000);
    afterAll(async () => {
      await server?.close();
    });

    it('serves the discovery endpoints as application/scim+json', async () => {
      const config = await server.call('GET', '/scim/v2/ServiceProviderConfig');
      expect(config.status).toBe(200);
      expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(config.json).toMatchObject({ patch: { supported: true }, filter: { supported: true, maxResults: 100 } });
      const types = await server.call('GET', '/scim/v2/ResourceTypes');
      expect((types.json?.Resources as { id: string }[]).map((t) => t.id)).toEqual(['User', 'Group']);
      const schemas = await server.call('GET', '/scim/v2/Schemas');
      expect((schemas.json?.Resources as { id: string }[]).map((s) => s.id)).toEqual([USER, GROUP]);
      expect((await server.call('GET', `/scim/v2/Schemas/${USER}`)).status).toBe(200);
      expectScimError(await server.call('GET', '/scim/v2/Schemas/urn:nothing'), 404);
      expectScimError(await server.call('GET', '/scim/v2/Nothing'), 404);
    });

    it('refuses a missing or wrong token, a user key and the admin key; the SCIM token opens no /v1 route', async () => {
      const alice = await server.evident.store.upsertUser({ name: 'token-probe', groups: [] });
      const aliceKey = await keyFor(server, alice.name);
      for (const token of [null, 'wrong-token', `${SCIM_TEST_TOKEN}x`, aliceKey, SCIM_TEST_ADMIN_KEY]) {
        const response = await server.call('GET', '/scim/v2/Users', { token });
        expectScimError(response, 401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
      expectScimError(
        await server.call('GET', '/scim/v2/Users', { token: null, headers: { 'x-api-key': SCIM_TEST_TOKEN } }),
        401,
      );
      expectScimError(
        await server.call('GET', '/scim/v2/Users', {
          token: null,
          headers: { authorization: `Bearer ${'x'.repeat(8192)}` },
        }),
        401,
      );
      expectScimError(
        await server.call('GET', '/scim/v2/Users', {
          token: null,
          headers: { authorization: `Basic ${SCIM_TEST_TOKEN}` },
        }),
        401,
      );
      expect((await server.call('GET', '/v1/me', { key: SCIM_TEST_TOKEN })).status).toBe(401);
      expect((await server.call('GET', '/v1/users', { key: SCIM_TEST_TOKEN })).status).toBe(401);
      expect((await server.call('POST', '/v1/search', { key: SCIM_TEST_TOKEN, json: { query: 'x' } })).status).toBe(
        401,
      );
    });

    it('creates, finds, pages, deactivates and deletes a user; group membership changes what their key can read at once', async () => {
      // RFC 7644 §3.3: create.
      const created = await server.call('POST', '/scim/v2/Users', { json: bjensenBody });
      expect(created.status).toBe(201);
      const user = created.json as { id: string; meta: Record<string, string> } & Record<string, unknown>;
      expect(user).toMatchObject({
        schemas: [USER],
        userName: 'bjensen@example.com',
        externalId: 'bjensen',
        active: true,
        groups: [],
        meta: { resourceType: 'User' },
      });
      expect(user.meta.location).toBe(`${server.url}/scim/v2/Users/${user.id}`);
      expect(created.headers.get('location')).toBe(user.meta.location);
      expect(created.headers.get('etag')).toBe(user.meta.version);
      expect(Number.isNaN(Date.parse(String(user.meta.created)))).toBe(false);
      expectScimError(await server.call('POST', '/scim/v2/Users', { json: bjensenBody }), 409, 'uniqueness');

      // RFC 7644 §3.4.2: filters (userName compares case-insensitively), and paging.
      const byName = await server.call(
        'GET',
        `/scim/v2/Users?filter=${encodeURIComponent('userName eq "BJensen@Example.com"')}`,
      );
      expect(byName.json).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
      expect((byName.json?.Resources as { id: string }[])[0]?.id).toBe(user.id);
      const byExternal = await server.call(
        'GET',
        `/scim/v2/Users?filter=${encodeURIComponent('externalId eq "bjensen"')}`,
      );
      expect(byExternal.json?.totalResults).toBe(1);
      const none = await server.call('GET', `/scim/v2/Users?filter=${encodeURIComponent('userName eq "nobody"')}`);
      expect(none.json).toMatchObject({ totalResults: 0, Resources: [] });
      const combined = await server.call(
        'GET',
        `/scim/v2/Users?filter=${encodeURIComponent('(userName sw "bj" or externalId eq "zz") and active eq true')}`,
      );
      expect(combined.json?.totalResults).toBe(1);
      for (const name of ['pager-a', 'pager-b', 'pager-c']) {
        expect(
          (await server.call('POST', '/scim/v2/Users', { json: { schemas: [USER], userName: name } })).status,
        ).toBe(201);
      }
      const page = await server.call(
        'GET',
        `/scim/v2/Users?filter=${encodeURIComponent('userName sw "pager"')}&startIndex=2&count=1`,
      );
      expect(page.json).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
      expect((page.json?.Resources as { userName: string }[])[0]?.userName).toBe('pager-b');
      const capped = await server.call('GET', '/scim/v2/Users?count=100000');
      expect(capped.status).toBe(200);
      expect((capped.json?.Resources as unknown[]).length).toBeLessThanOrEqual(100);
      const excluded = await server.call('GET', `/scim/v2/Users/${user.id}?attributes=userName`);
      expect(Object.keys(excluded.json ?? {}).sort()).toEqual(['id', 'meta', 'schemas', 'userName']);

      // Their key finds nothing of legal's until the directory puts them in the group.
      const key = await keyFor(server, 'bjensen@example.com');
      expect(await legalHits(server, key)).toBe(0);
      const group = await server.call('POST', '/scim/v2/Groups', {
        json: { schemas: [GROUP], displayName: 'legal', externalId: 'g-legal', members: [{ value: user.id }] },
      });
      expect(group.status).toBe(201);
      const groupId = (group.json as { id: string }).id;
      expect(group.json).toMatchObject({
        displayName: 'legal',
        members: [{ value: user.id, display: 'bjensen@example.com' }],
      });
      expect(await legalHits(server, key)).toBe(1);
      const asUser = await server.call('GET', `/scim/v2/Users/${user.id}`);
      expect(asUser.json?.groups).toEqual([expect.objectContaining({ value: groupId, display: 'legal' })]);

      // Entra ID removes a member with a value filter in the path: the key loses the document at once.
      const removed = await server.call('PATCH', `/scim/v2/Groups/${groupId}`, {
        json: patchOp({ op: 'Remove', path: `members[value eq "${user.id}"]` }),
      });
      expect(removed.status).toBe(200);
      expect(removed.json?.members).toEqual([]);
      expect(await legalHits(server, key)).toBe(0);
      // Okta adds one with a members value list; Entra removes one the same way.
      await server.call('PATCH', `/scim/v2/Groups/${groupId}`, {
        json: patchOp({ op: 'add', path: 'members', value: [{ value: user.id, display: 'bjensen@example.com' }] }),
      });
      expect(await legalHits(server, key)).toBe(1);
      const membership = await server.call(
        'GET',
        `/scim/v2/Groups?filter=${encodeURIComponent(`id eq "${groupId}" and members[value eq "${user.id}"]`)}&excludedAttributes=members`,
      );
      expect(membership.json?.totalResults).toBe(1);
      expect((membership.json?.Resources as Record<string, unknown>[])[0]?.members).toBeUndefined();
      const entraRemove = await server.call('PATCH', `/scim/v2/Groups/${groupId}`, {
        json: patchOp({ op: 'Remove', path: 'members', value: [{ value: user.id }] }),
      });
      expect(entraRemove.json?.members ?? entraRemove.json).toEqual([]);
      expect(await legalHits(server, key)).toBe(0);
      await server.call('PATCH', `/scim/v2/Groups/${groupId}`, {
        json: patchOp({ op: 'add', path: 'members', value: [{ value: user.id }] }),
      });
      expect(await legalHits(server, key)).toBe(1);

      // Entra ID deactivates with a string value; the key stops at once, and their session with it.
      // A browser signed in with the key-paste sign-in: its cookie works until the deactivation.
      const signIn = await server.call('POST', '/v1/sessions', { token: null, json: { api_key: key } });
      expect(signIn.status, signIn.text).toBe(201);
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect(cookie).toMatch(/^evident_session=/);
      expect((await server.call('GET', '/v1/me', { token: null, headers: { cookie } })).status).toBe(200);
      const session = { token: cookie.slice('evident_session='.length) };
      const entra = await server.call('PATCH', `/scim/v2/Users/${user.id}`, {
        json: patchOp({ op: 'Replace', path: 'active', value: 'False' }),
      });
      expect(entra.status).toBe(200);
      expect(entra.json?.active).toBe(false);
      expect(await legalHits(server, key)).toBeUndefined();
      expect((await server.call('GET', '/v1/me', { key })).status).toBe(401);
      expect(await server.evident.store.findSession(session.token)).toBeUndefined();
      expect((await server.call('GET', '/v1/me', { token: null, headers: { cookie } })).status).toBe(401);
      // Okta reactivates with a replace that names no path: the key works again.
      const okta = await server.call('PATCH', `/scim/v2/Users/${user.id}`, {
        json: patchOp({ op: 'replace', value: { active: true } }),
      });
      expect(okta.json?.active).toBe(true);
      expect(await legalHits(server, key)).toBe(1);
      // The session was ended, not paused: reactivation does not bring it back.
      expect((await server.call('GET', '/v1/me', { token: null, headers: { cookie } })).status).toBe(401);
      // PUT replaces: active false stops the key, true restores it.
      const put = await server.call('PUT', `/scim/v2/Users/${user.id}`, { json: { ...bjensenBody, active: false } });
      expect(put.json?.active).toBe(false);
      expect(await legalHits(server, key)).toBeUndefined();
      await server.call('PUT', `/scim/v2/Users/${user.id}`, { json: bjensenBody });
      expect(await legalHits(server, key)).toBe(1);

      // Every change is in the audit log under the provisioning client.
      const audit = await server.call('GET', '/v1/audit?action=user.deactivate', { key: SCIM_TEST_ADMIN_KEY });
      expect(audit.status).toBe(200);
      expect(JSON.stringify(audit.json)).toContain('evident:scim');
      const groupAudit = await server.call('GET', '/v1/audit?action=group.update', { key: SCIM_TEST_ADMIN_KEY });
      expect(JSON.stringify(groupAudit.json)).toContain('-1 members');

      // RFC 7644 §3.6: delete. The user is gone from the directory, their key and groups with them.
      const stale = created.headers.get('etag') ?? '';
      expectScimError(
        await server.call('DELETE', `/scim/v2/Users/${user.id}`, { headers: { 'if-match': stale } }),
        412,
      );
      expect((await server.call('DELETE', `/scim/v2/Users/${user.id}`)).status).toBe(204);
      expectScimError(await server.call('GET', `/scim/v2/Users/${user.id}`), 404);
      expect(await legalHits(server, key)).toBeUndefined();
      expect((await server.call('GET', `/scim/v2/Groups/${groupId}`)).json?.members).toEqual([]);
      expect((await server.evident.store.getUser('bjensen@example.com'))?.active).toBe(false);
      // Created again, they come back with a new id, in no group, without their old keys.
      const again = await server.call('POST', '/scim/v2/Users', { json: bjensenBody });
      expect(again.status).toBe(201);
      expect((again.json as { id: string }).id).not.toBe(user.id);
      expect(await legalHits(server, key)).toBeUndefined();

      expect((await server.call('DELETE', `/scim/v2/Groups/${groupId}`)).status).toBe(204);
      expectScimError(await server.call('GET', `/scim/v2/Groups/${groupId}`), 404);
    });

    it('renames a group (its members keep access under the new name) and refuses what a group cannot be', async () => {
      const member = await server.call('POST', '/scim/v2/Users', { json: { schemas: [USER], userName: 'renamer' } });
      const memberId = (member.json as { id: string }).id;
      const group = await server.call('POST', '/scim/v2/Groups', {
        json: { schemas: [GROUP], displayName: 'counsel', members: [{ value: memberId }] },
      });
      const groupId = (group.json as { id: string }).id;
      // Okta renames with a replace that names no path.
      const renamed = await server.call('PATCH', `/scim/v2/Groups/${groupId}`, {
        json: patchOp({ op: 'replace', value: { id: groupId, displayName: 'legal' } }),
      });
      expect(renamed.json).toMatchObject({ displayName: 'legal', members: [{ value: memberId }] });
      expect(await legalHits(server, await keyFor(server, 'renamer'))).toBe(1);
      // A read without members has the group's own ETag, which a conditional write then matches.
      const lean = await server.call('GET', `/scim/v2/Groups/${groupId}?excludedAttributes=members`);
      expect(lean.json?.members).toBeUndefined();
      const full = await server.call('GET', `/scim/v2/Groups/${groupId}`);
      expect(lean.headers.get('etag')).toBe(full.headers.get('etag'));
      const matched = await server.call('PATCH', `/scim/v2/Groups/${groupId}`, {
        headers: { 'if-match': lean.headers.get('etag') ?? '' },
        json: patchOp({ op: 'replace', path: 'externalId', value: 'g-2' }),
      });
      expect(matched.json?.externalId).toBe('g-2');
      expect(matched.headers.get('etag')).not.toBe(full.headers.get('etag'));
      const put = await server.call('PUT', `/scim/v2/Groups/${groupId}`, {
        json: { schemas: [GROUP], displayName: 'legal', members: [] },
      });
      expect(put.json?.members).toEqual([]);
      expectScimError(
        await server.call('POST', '/scim/v2/Groups', { json: { schemas: [GROUP], displayName: 'Sales Team' } }),
        400,
        'invalidValue',
      );
      expectScimError(
        await server.call('POST', '/scim/v2/Groups', { json: { schemas: [GROUP], displayName: 'legal' } }),
        409,
        'uniqueness',
      );
      expectScimError(
        await server.call('PATCH', `/scim/v2/Groups/${groupId}`, {
          json: patchOp({ op: 'add', path: 'members', value: [{ value: 'no-such-user' }] }),
        }),
        400,
        'invalidValue',
      );
      expectScimError(
        await server.call('PATCH', `/scim/v2/Users/${memberId}`, {
          json: patchOp({ op: 'replace', path: 'userName', value: 'someone-else' }),
        }),
        400,
        'mutability',
      );
    });

    it('applies concurrent member additions to one group, each of them', async () => {
      const group = await server.call('POST', '/scim/v2/Groups', {
        json: { schemas: [GROUP], displayName: 'crowd', members: [] },
      });
      const groupId = (group.json as { id: string }).id;
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const user = await server.call('POST', '/scim/v2/Users', { json: { schemas: [USER], userName: `crowd-${i}` } });
        ids.push((user.json as { id: string }).id);
      }
      const answers = await Promise.all(
        ids.map((id) =>
          server.call('PATCH', `/scim/v2/Groups/${groupId}`, {
            json: patchOp({ op: 'add', path: 'members', value: [{ value: id }] }),
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
      const members = (await server.call('GET', `/scim/v2/Groups/${groupId}`)).json?.members as { value: string }[];
      expect(members.map((m) => m.value).sort()).toEqual([...ids].sort());
    });

    it('answers malformed filters, bad PATCH bodies and oversize bodies with SCIM errors', async () => {
      for (const filter of [
        'userName eq',
        'userName eq "x" junk',
        'password eq "x"',
        `userName eq "${'x'.repeat(600)}"`,
      ]) {
        expectScimError(
          await server.call('GET', `/scim/v2/Users?filter=${encodeURIComponent(filter)}`),
          400,
          'invalidFilter',
        );
      }
      const many = Array.from({ length: 70 }, (_, i) => `userName eq "u${i}"`).join(' or ');
      expectScimError(
        await server.call('GET', `/scim/v2/Users?filter=${encodeURIComponent(many)}`),
        400,
        'invalidFilter',
      );
      expectScimError(await server.call('GET', '/scim/v2/Users?startIndex=abc'), 400, 'invalidValue');
      const target = await server.call('POST', '/scim/v2/Users', { json: { schemas: [USER], userName: 'patched' } });
      const id = (target.json as { id: string }).id;
      expectScimError(
        await server.call('PATCH', `/scim/v2/Users/${id}`, { json: patchOp({ op: 'explode', path: 'active' }) }),
        400,
        'invalidSyntax',
      );
      expectScimError(
        await server.call('PATCH', `/scim/v2/Users/${id}`, { json: { Operations: [] } }),
        400,
        'invalidSyntax',
      );
      expectScimError(
        await server.call('PATCH', `/scim/v2/Users/${id}`, {
          json: patchOp(...Array.from({ length: 101 }, () => ({ op: 'replace', path: 'active', value: true }))),
        }),
        400,
        'tooMany',
      );
      expectScimError(
        await server.call('PATCH', `/scim/v2/Users/${id}`, {
          json: patchOp({ op: 'replace', path: 'active', value: 'maybe' }),
        }),
        400,
        'invalidValue',
      );
      // Attributes Evident does not keep are accepted and change nothing.
      const ignored = await server.call('PATCH', `/scim/v2/Users/${id}`, {
        json: patchOp(
          { op: 'replace', path: 'name.givenName', value: 'Pat' },
          { op: 'add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Ops' },
        ),
      });
      expect(ignored.status).toBe(200);
      expect(ignored.json?.active).toBe(true);
      expectScimError(
        await server.call('POST', '/scim/v2/Users', {
          body: '{"userName": ',
          headers: { 'content-type': 'application/scim+json' },
        }),
        400,
      );
      expectScimError(
        await server.call('POST', '/scim/v2/Users', { json: { userName: 'evident:local' } }),
        400,
        'invalidValue',
      );
      const oversize = { schemas: [USER], userName: 'big', padding: 'x'.repeat(2 * 1024 * 1024) };
      expectScimError(await server.call('POST', '/scim/v2/Users', { json: oversize }), 413);
      expect(await server.evident.store.getUser('big')).toBeUndefined();
      expectScimError(await server.call('GET', '/scim/v2/Users/no-such-id'), 404);
    });
  });
}

describeScim('SQLite', () => startScimTestServer());

describe('SCIM without a token', () => {
  it('answers 404 on every SCIM path', async () => {
    const server = await startScimTestServer({ token: null });
    try {
      for (const path of ['/scim/v2/Users', '/scim/v2/ServiceProviderConfig', '/scim/v2/Groups/x']) {
        expect((await server.call('GET', path, { token: SCIM_TEST_TOKEN })).status).toBe(404);
      }
    } finally {
      await server.close();
    }
  }, 60_000);
});

describeWithPostgres('SCIM on PostgreSQL', (url) => {
  const schema = freshSchema('evident_scim');
  describeScim('PostgreSQL', () => startScimTestServer({ databaseUrl: withSchema(url, schema) }));
  afterAll(async () => {
    await dropSchemas(url, [schema]);
  });
});
