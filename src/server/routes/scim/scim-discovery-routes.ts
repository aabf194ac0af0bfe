import { Hono } from 'hono';
import type { ScimConfig } from '../../../config/index.ts';
import { NotFoundError } from '../../../errors/index.ts';
import { MAX_EXTERNAL_ID_CHARS, MAX_MEMBERS_PER_CHANGE } from '../../../store/store.ts';
import type { ServerEnv } from '../../server-env.ts';
import { originOf } from './scim-client.ts';
import { scimJson } from './scim-errors.ts';
import { listResponse } from './scim-paging.ts';
import { SCIM_BASE } from './scim-resources.ts';
import {
  SCIM_GROUP,
  SCIM_RESOURCE_TYPE,
  SCIM_SCHEMA,
  SCIM_SERVICE_PROVIDER_CONFIG,
  SCIM_USER,
} from './scim-schemas.ts';

type Attribute = Record<string, unknown>;
const attribute = (
  name: string,
  type: 'string' | 'boolean' | 'complex' | 'reference',
  options: Partial<Attribute> = {},
): Attribute => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...options,
});

const memberAttributes = (referenceType: string) => [
  attribute('value', 'string', { caseExact: true, mutability: 'immutable' }),
  attribute('display', 'string', { mutability: 'readOnly' }),
  attribute('$ref', 'reference', { referenceTypes: [referenceType], mutability: 'immutable' }),
  attribute('type', 'string', { mutability: 'readOnly' }),
];

/** The two resource schemas, with only the attributes Evident keeps (RFC 7643 §7). */
const SCHEMAS = [
  {
    id: SCIM_USER,
    name: 'User',
    description: "A person who signs in to Evident; their groups are what documents' ACLs match.",
    attributes: [
      attribute('userName', 'string', {
        required: true,
        uniqueness: 'server',
        mutability: 'immutable',
        description: 'The Evident user name: letters, digits, ".", "_", "@" or "-", at most 128 characters.',
      }),
      attribute('externalId', 'string', {
        caseExact: true,
        description: `At most ${MAX_EXTERNAL_ID_CHARS} characters.`,
      }),
      attribute('displayName', 'string', { mutability: 'readOnly', description: 'The userName.' }),
      attribute('active', 'boolean', { description: "False stops the user's API keys and sessions at once." }),
      attribute('groups', 'complex', {
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: memberAttributes('Group'),
      }),
    ],
  },
  {
    id: SCIM_GROUP,
    name: 'Group',
    description: "A group of users, named as documents' ACL entries group:<displayName> name it.",
    attributes: [
      attribute('displayName', 'string', {
        required: true,
        uniqueness: 'server',
        description: 'The group name ACLs match: no spaces, commas or colons, at most 128 characters.',
      }),
      attribute('externalId', 'string', { caseExact: true }),
      attribute('members', 'complex', {
        multiValued: true,
        subAttributes: memberAttributes('User'),
        description: `Users, by id; at most ${MAX_MEMBERS_PER_CHANGE} added in one request.`,
      }),
    ],
  },
];

/** ServiceProviderConfig, ResourceTypes and Schemas (RFC 7644 §4): what a provisioning client reads first. */
export function scimDiscoveryRoutes(config: ScimConfig): Hono<ServerEnv> {
  const withMeta = <T extends { id: string }>(origin: string, kind: string, resource: T) => ({
    ...resource,
    meta: {
      resourceType: kind,
      location: `${origin}${SCIM_BASE}/${kind === 'Schema' ? 'Schemas' : 'ResourceTypes'}/${resource.id}`,
    },
  });
  const resourceTypes = [
    { schemas: [SCIM_RESOURCE_TYPE], id: 'User', name: 'User', endpoint: '/Users', schema: SCIM_USER },
    { schemas: [SCIM_RESOURCE_TYPE], id: 'Group', name: 'Group', endpoint: '/Groups', schema: SCIM_GROUP },
  ];
  const schemas = SCHEMAS.map((schema) => ({ schemas: [SCIM_SCHEMA], ...schema }));
  const one = <T extends { id: string }>(list: readonly T[], id: string) => list.find((item) => item.id === id);

  return new Hono<ServerEnv>()
    .get('/ServiceProviderConfig', (c) =>
      scimJson(c, {
        schemas: [SCIM_SERVICE_PROVIDER_CONFIG],
        patch: { supported: true },
        bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
        filter: { supported: true, maxResults: config.maxPageSize },
        changePassword: { supported: false },
        sort: { supported: false },
        etag: { supported: true },
        authenticationSchemes: [
          {
            type: 'oauthbearertoken',
            name: 'Bearer token',
            description: 'The token set in scim.token (EVIDENT_SCIM_TOKEN), sent as Authorization: Bearer <token>.',
            primary: true,
          },
        ],
        meta: { resourceType: 'ServiceProviderConfig', location: `${originOf(c)}${SCIM_BASE}/ServiceProviderConfig` },
      }),
    )
    .get('/ResourceTypes', (c) => {
      const all = resourceTypes.map((r) => withMeta(originOf(c), 'ResourceType', r));
      return scimJson(c, listResponse(all, { startIndex: 1, count: all.length }));
    })
    .get('/ResourceTypes/:id', (c) => {
      const found = one(resourceTypes, c.req.param('id'));
      if (!found) throw new NotFoundError('ResourceType', c.req.param('id').slice(0, 64));
      return scimJson(c, withMeta(originOf(c), 'ResourceType', found));
    })
    .get('/Schemas', (c) => {
      const all = schemas.map((s) => withMeta(originOf(c), 'Schema', s));
      return scimJson(c, listResponse(all, { startIndex: 1, count: all.length }));
    })
    .get('/Schemas/:id', (c) => {
      const found = one(schemas, c.req.param('id'));
      if (!found) throw new NotFoundError('Schema', c.req.param('id').slice(0, 64));
      return scimJson(c, withMeta(originOf(c), 'Schema', found));
    });
}
