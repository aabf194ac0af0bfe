import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { MAX_GROUP_NAME_CHARS } from '../../../domain/index.ts';
import { NotFoundError } from '../../../errors/index.ts';
import {
  MAX_EXTERNAL_ID_CHARS,
  MAX_MEMBERS_PER_CHANGE,
  type DirectoryGroup,
  type DirectoryGroupPatch,
} from '../../../store/store.ts';
import { readJson } from '../../read-json.ts';
import type { ServerEnv } from '../../server-env.ts';
import { assertIfMatch, originOf, SCIM_CLIENT, type ScimDeps } from './scim-client.ts';
import { scimInvalid, scimJson } from './scim-errors.ts';
import { GROUP_FILTER_ATTRIBUTES, lookupOf, matchesFilter, parseScimFilter } from './scim-filter.ts';
import { excludedOf, listResponse, pagingOf, projected } from './scim-paging.ts';
import { appliedPatch, patchOperations } from './scim-patch.ts';
import { scimGroup, type ScimGroupResource } from './scim-resources.ts';

const memberList = z.array(z.looseObject({ value: z.string().min(1).max(256) })).max(MAX_MEMBERS_PER_CHANGE);

/** A Group as POST and PUT send it: members are users, by their SCIM ids. */
const groupBody = z.looseObject({
  schemas: z.array(z.string().max(256)).max(16).optional(),
  displayName: z.string().min(1).max(MAX_GROUP_NAME_CHARS),
  externalId: z.string().min(1).max(MAX_EXTERNAL_ID_CHARS).optional(),
  members: memberList.optional(),
});

const notFound = (id: string) => new NotFoundError('Group', id.slice(0, 64));

/** What a change of membership adds and removes, by member ids. */
function membershipChange(
  before: readonly string[],
  after: readonly string[],
): Pick<DirectoryGroupPatch, 'add' | 'remove'> {
  const had = new Set(before);
  const has = new Set(after);
  return { add: [...has].filter((id) => !had.has(id)), remove: [...had].filter((id) => !has.has(id)) };
}

const describeChange = (patch: DirectoryGroupPatch): string =>
  [
    patch.displayName === undefined ? '' : 'renamed',
    patch.externalId === undefined ? '' : 'externalId changed',
    patch.add?.length ? `+${patch.add.length} members` : '',
    patch.remove?.length ? `-${patch.remove.length} members` : '',
  ]
    .filter(Boolean)
    .join(', ');

/** The SCIM Groups endpoint: a group's members are users, and being one is what ACL entries `group:<name>` match. */
export function scimGroupRoutes(deps: ScimDeps): Hono<ServerEnv> {
  const { store, audit, config } = deps;
  const current = async (id: string) => {
    const group = await store.getDirectoryGroup(id);
    if (!group) throw notFound(id);
    return group;
  };
  const respond = (c: Context, group: DirectoryGroup, status: 200 | 201 = 200) => {
    const resource = scimGroup(group, originOf(c), !excludedOf(c).has('members'));
    if (resource.meta.version) c.header('ETag', resource.meta.version);
    if (status === 201) c.header('Location', resource.meta.location);
    return scimJson(c, projected(resource, c), status);
  };
  /** Applies a change (nothing when empty) and records it. */
  const change = async (before: DirectoryGroup, patch: DirectoryGroupPatch) => {
    const summary = describeChange(patch);
    if (!summary) return before;
    const updated = await store.updateDirectoryGroup(before.id, patch);
    if (!updated) throw notFound(before.id);
    await audit.admin({
      actor: SCIM_CLIENT,
      action: 'group.update',
      target: updated.displayName,
      surface: 'scim',
      outcome: summary,
    });
    return updated;
  };
  const memberIds = (group: DirectoryGroup) => group.members.map((m) => m.id);

  return (
    new Hono<ServerEnv>()
      .get('/Groups', async (c) => {
        const paging = pagingOf(c, config.maxPageSize);
        const text = c.req.query('filter');
        const filter =
          text === undefined ? undefined : parseScimFilter(text, GROUP_FILTER_ATTRIBUTES, config.maxFilterChars);
        const lookup = filter ? lookupOf(filter) : undefined;
        // Members are read when shown or filtered on.
        const members = !excludedOf(c).has('members') || (text ?? '').toLowerCase().includes('members');
        let candidates: DirectoryGroup[];
        if (lookup?.attribute === 'displayname')
          candidates = await store.findDirectoryGroups({ displayName: lookup.value, members });
        else if (lookup?.attribute === 'externalid')
          candidates = await store.findDirectoryGroups({ externalId: lookup.value, members });
        else if (lookup?.attribute === 'id') {
          const found = await store.getDirectoryGroup(lookup.value, { members });
          candidates = found ? [found] : [];
        } else candidates = await store.findDirectoryGroups({ members });
        const origin = originOf(c);
        const matched = candidates.filter(
          (group) => !filter || matchesFilter(scimGroup(group, origin, true), filter, GROUP_FILTER_ATTRIBUTES),
        );
        const page = listResponse(matched, paging);
        const shown = !excludedOf(c).has('members');
        return scimJson(c, {
          ...page,
          Resources: page.Resources.map((group) => projected(scimGroup(group, origin, shown, members), c)),
        });
      })
      .post('/Groups', async (c) => {
        const body = await readJson(c, groupBody);
        const group = await store.createDirectoryGroup({
          displayName: body.displayName,
          ...(body.externalId === undefined ? {} : { externalId: body.externalId }),
          members: (body.members ?? []).map((m) => m.value),
        });
        await audit.admin({
          actor: SCIM_CLIENT,
          action: 'group.add',
          target: group.displayName,
          surface: 'scim',
          outcome: `${group.members.length} members`,
        });
        return respond(c, group, 201);
      })
      // Read with its members whether or not they are shown, so its ETag is the one a write compares.
      .get('/Groups/:id', async (c) => respond(c, await current(c.req.param('id'))))
      .put('/Groups/:id', async (c) => {
        const body = await readJson(c, groupBody);
        const before = await current(c.req.param('id'));
        assertIfMatch(c, scimGroup(before, originOf(c), true).meta.version ?? '');
        return respond(
          c,
          await change(before, {
            ...(body.displayName === before.displayName ? {} : { displayName: body.displayName }),
            ...(body.externalId === before.externalId ? {} : { externalId: body.externalId ?? null }),
            ...membershipChange(
              memberIds(before),
              (body.members ?? []).map((m) => m.value),
            ),
          }),
        );
      })
      .patch('/Groups/:id', async (c) => {
        const body = await readJson(c, z.unknown());
        const operations = patchOperations(body, ['displayName', 'externalId', 'members'], config.maxOperations);
        const before = await current(c.req.param('id'));
        const resource = scimGroup(before, originOf(c), true);
        assertIfMatch(c, resource.meta.version ?? '');
        const patched = appliedPatch<ScimGroupResource>(resource, operations);
        const parsed = z
          .object({
            displayName: z.string().min(1).max(MAX_GROUP_NAME_CHARS),
            externalId: z.string().min(1).max(MAX_EXTERNAL_ID_CHARS).optional(),
            members: z.array(z.looseObject({ value: z.string().min(1).max(256) })).optional(),
          })
          .safeParse(patched);
        if (!parsed.success)
          throw scimInvalid(
            'invalidValue',
            `The patched group is not valid at ${parsed.error.issues[0]?.path.join('.').slice(0, 100) || 'its root'}.`,
            'A group keeps a displayName; members are objects with a value (a user id).',
          );
        const after = parsed.data;
        const memberChange = membershipChange(
          memberIds(before),
          (after.members ?? []).map((m) => m.value),
        );
        if ((memberChange.add?.length ?? 0) > MAX_MEMBERS_PER_CHANGE)
          throw scimInvalid(
            'tooMany',
            `At most ${MAX_MEMBERS_PER_CHANGE} members per change.`,
            'Send several PATCH requests.',
          );
        return respond(
          c,
          await change(before, {
            ...(after.displayName === before.displayName ? {} : { displayName: after.displayName }),
            ...(after.externalId === before.externalId ? {} : { externalId: after.externalId ?? null }),
            ...memberChange,
          }),
        );
      })
      .delete('/Groups/:id', async (c) => {
        const before = await current(c.req.param('id'));
        assertIfMatch(c, scimGroup(before, originOf(c), true).meta.version ?? '');
        const deleted = await store.deleteDirectoryGroup(before.id);
        if (!deleted) throw notFound(before.id);
        await audit.admin({
          actor: SCIM_CLIENT,
          action: 'group.delete',
          target: deleted.displayName,
          surface: 'scim',
          outcome: `${deleted.members.length} members`,
        });
        return c.body(null, 204);
      })
  );
}
