import { createHash } from 'node:crypto';
import type { DirectoryGroup, DirectoryUser } from '../../../store/store.ts';
import { SCIM_GROUP, SCIM_USER } from './scim-schemas.ts';

/** Where the SCIM routes are mounted. */
export const SCIM_BASE = '/scim/v2';

export interface ScimMeta {
  resourceType: 'User' | 'Group';
  created: string;
  lastModified: string;
  location: string;
  /** Absent on a group listed without reading its members (it could not name them). */
  version?: string;
}

export interface ScimMember {
  value: string;
  display?: string;
  $ref?: string;
  type?: string;
}

export interface ScimUserResource {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  displayName: string;
  active: boolean;
  groups: ScimMember[];
  meta: ScimMeta;
}

export interface ScimGroupResource {
  schemas: string[];
  id: string;
  externalId?: string;
  displayName: string;
  members?: ScimMember[];
  meta: ScimMeta;
}

/** A weak ETag of what a resource says (its meta aside): changes whenever a client could see a change. */
export const versionOf = (resource: object): string =>
  `W/"${createHash('sha256').update(JSON.stringify(resource)).digest('hex').slice(0, 20)}"`;

/** The user as SCIM shows them: `groups` lists the directory groups among their group names (read-only). */
export function scimUser(user: DirectoryUser, origin: string, groupIds: ReadonlyMap<string, string>): ScimUserResource {
  const groups = user.groups.flatMap((name): ScimMember[] => {
    const id = groupIds.get(name);
    return id ? [{ value: id, display: name, $ref: `${origin}${SCIM_BASE}/Groups/${id}`, type: 'direct' }] : [];
  });
  const body = {
    schemas: [SCIM_USER],
    id: user.id,
    ...(user.externalId === undefined ? {} : { externalId: user.externalId }),
    userName: user.name,
    displayName: user.name,
    active: user.active,
    groups,
  };
  return {
    ...body,
    meta: {
      resourceType: 'User',
      created: user.createdAt,
      lastModified: user.updatedAt,
      location: `${origin}${SCIM_BASE}/Users/${user.id}`,
      version: versionOf(body),
    },
  };
}

/** A group as SCIM shows it; `membersRead` false: the store was asked without members, so no version is given. */
export function scimGroup(
  group: DirectoryGroup,
  origin: string,
  withMembers: boolean,
  membersRead = true,
): ScimGroupResource {
  const body = {
    schemas: [SCIM_GROUP],
    id: group.id,
    ...(group.externalId === undefined ? {} : { externalId: group.externalId }),
    displayName: group.displayName,
    ...(withMembers
      ? {
          members: group.members.map((m) => ({
            value: m.id,
            display: m.name,
            $ref: `${origin}${SCIM_BASE}/Users/${m.id}`,
            type: 'User',
          })),
        }
      : {}),
  };
  // Of the group and its member ids, whether or not this response lists them.
  const version = membersRead ? versionOf({ ...body, members: group.members.map((m) => m.id) }) : undefined;
  return {
    ...body,
    meta: {
      resourceType: 'Group',
      created: group.createdAt,
      lastModified: group.updatedAt,
      location: `${origin}${SCIM_BASE}/Groups/${group.id}`,
      ...(version === undefined ? {} : { version }),
    },
  };
}
