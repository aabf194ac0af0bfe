import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { MAX_USER_NAME_CHARS } from '../../../domain/index.ts';
import { NotFoundError } from '../../../errors/index.ts';
import { MAX_EXTERNAL_ID_CHARS, type DirectoryUser } from '../../../store/store.ts';
import { readJson } from '../../read-json.ts';
import type { ServerEnv } from '../../server-env.ts';
import { assertIfMatch, originOf, SCIM_CLIENT, type ScimDeps } from './scim-client.ts';
import { scimInvalid, scimJson } from './scim-errors.ts';
import { lookupOf, matchesFilter, parseScimFilter, USER_FILTER_ATTRIBUTES } from './scim-filter.ts';
import { listResponse, pagingOf, projected } from './scim-paging.ts';
import { appliedPatch, patchOperations } from './scim-patch.ts';
import { scimUser, type ScimUserResource } from './scim-resources.ts';

const activeValue = z
  .union([z.boolean(), z.enum(['True', 'False', 'true', 'false'])])
  .transform((value) => (typeof value === 'boolean' ? value : value.toLowerCase() === 'true'));

/** A User as POST and PUT send it; attributes Evident does not keep (name, emails, extensions) are accepted and not stored. */
const userBody = z.looseObject({
  schemas: z.array(z.string().max(256)).max(16).optional(),
  userName: z.string().min(1).max(MAX_USER_NAME_CHARS),
  externalId: z.string().min(1).max(MAX_EXTERNAL_ID_CHARS).optional(),
  active: activeValue.optional(),
});

const notFound = (id: string) => new NotFoundError('User', id.slice(0, 64));

/** The SCIM Users endpoint (RFC 7644 §3): list with filters, create, read, replace, patch and delete. */
export function scimUserRoutes(deps: ScimDeps): Hono<ServerEnv> {
  const { store, audit, config } = deps;

  const groupIds = async () =>
    new Map((await store.findDirectoryGroups({ members: false })).map((g) => [g.displayName, g.id]));
  const resourceOf = async (c: Context, user: DirectoryUser) => scimUser(user, originOf(c), await groupIds());
  const respond = async (c: Context, user: DirectoryUser, status: 200 | 201 = 200) => {
    const resource = await resourceOf(c, user);
    if (resource.meta.version) c.header('ETag', resource.meta.version);
    if (status === 201) c.header('Location', resource.meta.location);
    return scimJson(c, projected(resource, c), status);
  };
  const current = async (id: string) => {
    const user = await store.getDirectoryUser(id);
    if (!user) throw notFound(id);
    return user;
  };

  /** Writes what changed of a user (external id, active) and records it; deactivation ends their sessions at once. */
  const update = async (before: DirectoryUser, next: { externalId?: string | undefined; active: boolean }) => {
    const externalChanged = next.externalId !== before.externalId;
    const activeChanged = next.active !== before.active;
    if (!externalChanged && !activeChanged) return before;
    const updated = await store.updateDirectoryUser(before.id, {
      ...(externalChanged ? { externalId: next.externalId ?? null } : {}),
      ...(activeChanged ? { active: next.active } : {}),
    });
    if (!updated) throw notFound(before.id);
    if (activeChanged && !next.active) await store.revokeUserSessions(updated.name);
    await audit.admin({
      actor: SCIM_CLIENT,
      action: activeChanged ? (next.active ? 'user.activate' : 'user.deactivate') : 'user.update',
      target: updated.name,
      surface: 'scim',
      ...(externalChanged ? { outcome: 'externalId changed' } : {}),
    });
    return updated;
  };

  /** userName is the name ACLs and keys know the user by: it may change case in the provider, never the name. */
  const assertSameName = (user: DirectoryUser, userName: unknown) => {
    if (typeof userName !== 'string' || userName.toLowerCase() !== user.name.toLowerCase())
      throw scimInvalid(
        'mutability',
        "userName cannot be changed: it is the name documents' ACLs and API keys know the user by.",
        'Keep the userName, or create a new user and delete this one.',
      );
  };

  return new Hono<ServerEnv>()
    .get('/Users', async (c) => {
      const paging = pagingOf(c, config.maxPageSize);
      const text = c.req.query('filter');
      const filter =
        text === undefined ? undefined : parseScimFilter(text, USER_FILTER_ATTRIBUTES, config.maxFilterChars);
      const lookup = filter ? lookupOf(filter) : undefined;
      let candidates: DirectoryUser[];
      if (lookup?.attribute === 'username') candidates = await store.findDirectoryUsers({ name: lookup.value });
      else if (lookup?.attribute === 'externalid')
        candidates = await store.findDirectoryUsers({ externalId: lookup.value });
      else if (lookup?.attribute === 'id') {
        const found = await store.getDirectoryUser(lookup.value);
        candidates = found ? [found] : [];
      } else candidates = await store.findDirectoryUsers({});
      const ids = await groupIds();
      const origin = originOf(c);
      const matched = candidates
        .map((user) => scimUser(user, origin, ids))
        .filter((resource) => !filter || matchesFilter(resource, filter, USER_FILTER_ATTRIBUTES));
      const page = listResponse(matched, paging);
      return scimJson(c, { ...page, Resources: page.Resources.map((r) => projected(r, c)) });
    })
    .post('/Users', async (c) => {
      const body = await readJson(c, userBody);
      const user = await store.createDirectoryUser({
        name: body.userName,
        ...(body.externalId === undefined ? {} : { externalId: body.externalId }),
        active: body.active ?? true,
      });
      await audit.admin({
        actor: SCIM_CLIENT,
        action: 'user.add',
        target: user.name,
        surface: 'scim',
        outcome: user.active ? 'active' : 'inactive',
      });
      return respond(c, user, 201);
    })
    .get('/Users/:id', async (c) => respond(c, await current(c.req.param('id'))))
    .put('/Users/:id', async (c) => {
      const body = await readJson(c, userBody);
      const before = await current(c.req.param('id'));
      assertIfMatch(c, (await resourceOf(c, before)).meta.version ?? '');
      assertSameName(before, body.userName);
      // A PUT replaces: an absent externalId is removed; an absent active keeps its value (it never reactivates).
      return respond(c, await update(before, { externalId: body.externalId, active: body.active ?? before.active }));
    })
    .patch('/Users/:id', async (c) => {
      const body = await readJson(c, z.unknown());
      const operations = patchOperations(body, ['userName', 'externalId', 'active'], config.maxOperations);
      const before = await current(c.req.param('id'));
      const resource = await resourceOf(c, before);
      assertIfMatch(c, resource.meta.version ?? '');
      const patched = appliedPatch<ScimUserResource>(resource, operations);
      assertSameName(before, patched.userName);
      const active = patched.active === undefined ? false : patched.active;
      if (typeof active !== 'boolean')
        throw scimInvalid('invalidValue', 'active is true or false.', 'Send "active": false to deactivate.');
      const externalId = patched.externalId;
      if (
        externalId !== undefined &&
        (typeof externalId !== 'string' || externalId.length > MAX_EXTERNAL_ID_CHARS || externalId === '')
      )
        throw scimInvalid(
          'invalidValue',
          `externalId is a string of 1 to ${MAX_EXTERNAL_ID_CHARS} characters.`,
          'Send a shorter externalId.',
        );
      return respond(c, await update(before, { externalId, active }));
    })
    .delete('/Users/:id', async (c) => {
      const before = await current(c.req.param('id'));
      assertIfMatch(c, (await resourceOf(c, before)).meta.version ?? '');
      const deleted = await store.deleteDirectoryUser(before.id);
      if (!deleted) throw notFound(before.id);
      await store.revokeUserSessions(deleted.name);
      await audit.admin({ actor: SCIM_CLIENT, action: 'user.delete', target: deleted.name, surface: 'scim' });
      return c.body(null, 204);
    });
}
