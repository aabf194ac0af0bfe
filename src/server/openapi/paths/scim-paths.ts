import type { MediaTypeObject, ParameterObject } from '../openapi-types.ts';
import { operation, pathGroup, pathParam, type ResponseSpec } from '../operation.ts';

const SCIM = 'application/scim+json';
const scim = (schema: Record<string, unknown>): Record<string, MediaTypeObject> => ({ [SCIM]: { schema } });
const anyObject = { type: 'object', additionalProperties: true };
const scimError = {
  type: 'object',
  required: ['schemas', 'status', 'detail'],
  properties: {
    schemas: { type: 'array', items: { const: 'urn:ietf:params:scim:api:messages:2.0:Error' } },
    status: { type: 'string' },
    scimType: {
      type: 'string',
      enum: [
        'invalidFilter',
        'tooMany',
        'uniqueness',
        'mutability',
        'invalidSyntax',
        'invalidPath',
        'noTarget',
        'invalidValue',
      ],
    },
    detail: { type: 'string' },
  },
};
const meta = {
  type: 'object',
  properties: {
    resourceType: { type: 'string' },
    created: { type: 'string' },
    lastModified: { type: 'string' },
    location: { type: 'string' },
    version: {
      type: 'string',
      description: 'Also the ETag header; If-Match on PUT, PATCH and DELETE checks it (412).',
    },
  },
};
const member = { type: 'object', properties: { value: { type: 'string' }, display: { type: 'string' } } };
const user = {
  type: 'object',
  required: ['userName'],
  properties: {
    schemas: { type: 'array', items: { type: 'string' } },
    id: { type: 'string', readOnly: true },
    userName: { type: 'string', description: 'The Evident user name; cannot change once created (mutability).' },
    externalId: { type: 'string' },
    active: { type: 'boolean', description: "false: the user's API keys and sessions stop at once." },
    displayName: { type: 'string', readOnly: true },
    groups: { type: 'array', items: member, readOnly: true },
    meta: { ...meta, readOnly: true },
  },
  additionalProperties: true,
};
const group = {
  type: 'object',
  required: ['displayName'],
  properties: {
    schemas: { type: 'array', items: { type: 'string' } },
    id: { type: 'string', readOnly: true },
    displayName: { type: 'string', description: 'The group name ACL entries `group:<name>` match (no spaces).' },
    externalId: { type: 'string' },
    members: { type: 'array', items: member },
    meta: { ...meta, readOnly: true },
  },
  additionalProperties: true,
};
const listOf = (item: Record<string, unknown>) => ({
  type: 'object',
  properties: {
    schemas: { type: 'array', items: { type: 'string' } },
    totalResults: { type: 'integer' },
    startIndex: { type: 'integer' },
    itemsPerPage: { type: 'integer' },
    Resources: { type: 'array', items: item },
  },
});
const patchBody = {
  type: 'object',
  required: ['Operations'],
  properties: {
    schemas: { type: 'array', items: { const: 'urn:ietf:params:scim:api:messages:2.0:PatchOp' } },
    Operations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['op'],
        properties: { op: { type: 'string' }, path: { type: 'string' }, value: {} },
      },
    },
  },
};

const query = (name: string, description: string, type = 'string'): ParameterObject => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type },
});
const listParams = [
  query('filter', 'RFC 7644 §3.4.2.2, e.g. `userName eq "bjensen"`; at most `scim.maxFilterChars` characters.'),
  query('startIndex', '1-based index of the first result.', 'integer'),
  query('count', 'Results per page, at most `scim.maxPageSize`.', 'integer'),
  query('attributes', 'Top-level attributes to return (id, schemas and meta always are).'),
  query('excludedAttributes', 'Top-level attributes to leave out, e.g. `members`.'),
];
const id = pathParam('id', 'The resource id.');

/** The responses every SCIM route may give besides its own: a wrong token, or SCIM off. */
const common = (extra: Record<number, ResponseSpec>): Record<number, ResponseSpec> => ({
  ...extra,
  401: { description: 'Missing or wrong SCIM token (`scim.token`).', content: scim(scimError) },
  404: {
    description: 'No such resource, or SCIM is off (no `scim.token` configured).',
    content: scim(scimError),
  },
});
const writeErrors = {
  400: {
    description: 'Invalid (`invalidValue`, `invalidSyntax`, `invalidPath`, `mutability`, `tooMany`).',
    content: scim(scimError),
  },
  412: { description: 'If-Match names another version.', content: scim(scimError) },
  413: { description: 'The body is larger than `limits.maxBodyBytes`.', content: scim(scimError) },
};
const body = (schema: Record<string, unknown>) => ({ content: scim(schema) });
const access = 'scim' as const;
const token = 'Needs the SCIM token (`Authorization: Bearer <scim.token>`), not an API key.';

export const scimPaths = pathGroup(
  {
    name: 'SCIM',
    description:
      "SCIM 2.0 (RFC 7643/7644) for an identity provider's provisioning client: users, their active flag, groups and members. Opened by `scim.token` only; see docs/scim.md.",
  },
  {
    '/scim/v2/ServiceProviderConfig': {
      get: operation({
        id: 'scimServiceProviderConfig',
        summary: 'What this SCIM service supports',
        description: token,
        access,
        responses: common({ 200: { description: 'The configuration.', content: scim(anyObject) } }),
      }),
    },
    '/scim/v2/ResourceTypes': {
      get: operation({
        id: 'scimResourceTypes',
        summary: 'The resource types (User, Group)',
        description: token,
        access,
        responses: common({ 200: { description: 'A ListResponse.', content: scim(listOf(anyObject)) } }),
      }),
    },
    '/scim/v2/ResourceTypes/{id}': {
      get: operation({
        id: 'scimResourceType',
        summary: 'One resource type',
        description: token,
        access,
        params: [id],
        responses: common({ 200: { description: 'The resource type.', content: scim(anyObject) } }),
      }),
    },
    '/scim/v2/Schemas': {
      get: operation({
        id: 'scimSchemas',
        summary: 'The User and Group schemas, with the attributes Evident keeps',
        description: token,
        access,
        responses: common({ 200: { description: 'A ListResponse.', content: scim(listOf(anyObject)) } }),
      }),
    },
    '/scim/v2/Schemas/{id}': {
      get: operation({
        id: 'scimSchema',
        summary: 'One schema, by its URN',
        description: token,
        access,
        params: [id],
        responses: common({ 200: { description: 'The schema.', content: scim(anyObject) } }),
      }),
    },
    '/scim/v2/Users': {
      get: operation({
        id: 'scimListUsers',
        summary: 'List or filter users',
        description: `${token} Filters on id, userName, externalId, active, displayName, groups and meta dates; and, or, not.`,
        access,
        params: listParams,
        responses: common({
          200: { description: 'A ListResponse of users.', content: scim(listOf(user)) },
          400: { description: 'A bad filter (`invalidFilter`) or paging value.', content: scim(scimError) },
        }),
      }),
      post: operation({
        id: 'scimCreateUser',
        summary: 'Create a user',
        description: `${token} A member in no group; attributes Evident does not keep are accepted and not stored.`,
        access,
        body: body(user),
        responses: common({
          201: { description: 'The user (Location and ETag headers).', content: scim(user) },
          409: { description: 'A user with that userName exists (`uniqueness`).', content: scim(scimError) },
          ...writeErrors,
        }),
      }),
    },
    '/scim/v2/Users/{id}': {
      get: operation({
        id: 'scimGetUser',
        summary: 'A user',
        description: token,
        access,
        params: [id],
        responses: common({ 200: { description: 'The user.', content: scim(user) } }),
      }),
      put: operation({
        id: 'scimReplaceUser',
        summary: 'Replace a user (externalId, active)',
        description: `${token} \`active: false\` stops the user's keys and ends their sessions at once.`,
        access,
        params: [id],
        body: body(user),
        responses: common({ 200: { description: 'The user.', content: scim(user) }, ...writeErrors }),
      }),
      patch: operation({
        id: 'scimPatchUser',
        summary: 'Patch a user (RFC 7644 §3.5.2)',
        description: `${token} As Entra ID and Okta send it, e.g. \`{"op":"replace","value":{"active":false}}\`.`,
        access,
        params: [id],
        body: body(patchBody),
        responses: common({ 200: { description: 'The user.', content: scim(user) }, ...writeErrors }),
      }),
      delete: operation({
        id: 'scimDeleteUser',
        summary: 'Delete a user',
        description: `${token} Deactivates them, removes their groups, API keys and sessions, and takes them out of the directory.`,
        access,
        params: [id],
        responses: common({
          204: { description: 'Deleted.' },
          412: writeErrors[412],
        }),
      }),
    },
    '/scim/v2/Groups': {
      get: operation({
        id: 'scimListGroups',
        summary: 'List or filter groups',
        description: `${token} Filters on id, displayName, externalId, members (e.g. \`members[value eq "<user id>"]\`) and meta dates.`,
        access,
        params: listParams,
        responses: common({
          200: { description: 'A ListResponse of groups.', content: scim(listOf(group)) },
          400: { description: 'A bad filter (`invalidFilter`) or paging value.', content: scim(scimError) },
        }),
      }),
      post: operation({
        id: 'scimCreateGroup',
        summary: 'Create a group',
        description: `${token} Its members are exactly those listed: users who held the name and are not listed leave it.`,
        access,
        body: body(group),
        responses: common({
          201: { description: 'The group.', content: scim(group) },
          409: { description: 'A group with that displayName exists (`uniqueness`).', content: scim(scimError) },
          ...writeErrors,
        }),
      }),
    },
    '/scim/v2/Groups/{id}': {
      get: operation({
        id: 'scimGetGroup',
        summary: 'A group',
        description: token,
        access,
        params: [id, listParams[4] as ParameterObject],
        responses: common({ 200: { description: 'The group.', content: scim(group) } }),
      }),
      put: operation({
        id: 'scimReplaceGroup',
        summary: 'Replace a group (displayName, externalId, members)',
        description: `${token} A rename renames the group in every member's groups.`,
        access,
        params: [id],
        body: body(group),
        responses: common({ 200: { description: 'The group.', content: scim(group) }, ...writeErrors }),
      }),
      patch: operation({
        id: 'scimPatchGroup',
        summary: 'Patch a group: add and remove members, rename',
        description: `${token} Members added or removed can or cannot read the group's documents from their next request.`,
        access,
        params: [id],
        body: body(patchBody),
        responses: common({ 200: { description: 'The group.', content: scim(group) }, ...writeErrors }),
      }),
      delete: operation({
        id: 'scimDeleteGroup',
        summary: 'Delete a group',
        description: `${token} Takes its name out of every user's groups.`,
        access,
        params: [id],
        responses: common({ 204: { description: 'Deleted.' }, 412: writeErrors[412] }),
      }),
    },
  },
);
