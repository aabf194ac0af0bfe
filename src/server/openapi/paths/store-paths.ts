import { z } from 'zod';
import {
  storeDeleteSchema,
  storeItemJson,
  storeNamespacesSchema,
  storePutSchema,
  storeSearchSchema,
} from '../../routes/langgraph/store-routes.ts';
import { namespaceAclJson, namespaceAclSchema } from '../../routes/store-acl-routes.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';

const forbidden = {
  description:
    "A write in a namespace the key may not write (`namespace_forbidden`): another user's own namespace, or a shared one whose ACL does not name you.",
  json: ERROR_SCHEMA_REF,
};

const rootParam = pathParam('root', 'The first label of a shared namespace (not `users`).');

export const storePaths = pathGroup(
  {
    name: 'Store (LangGraph API)',
    description:
      'Long-term memory as LangGraph\'s Store API: JSON items under namespaces. `["users", <you>, …]` is yours alone (the agents\' memories are there, under `memories`); other namespaces are shared under an ACL. An item you may not read is answered exactly as an absent one.',
  },
  {
    '/store/items': {
      put: operation({
        id: 'putStoreItem',
        summary: 'Put an item',
        description:
          'Creates or replaces the item. Its text (all strings of the value, or the `index` fields) is embedded, so a query finds it, and an item under `["users", <you>]` is a memory the agents recall. The first write under a new shared first label creates that namespace, owned by you and readable by nobody else until you set its ACL.',
        access: 'key',
        json: storePutSchema,
        responses: { 204: { description: 'Stored.' }, 403: forbidden },
      }),
      get: operation({
        id: 'getStoreItem',
        summary: 'Get an item',
        access: 'key',
        params: [
          {
            name: 'namespace',
            in: 'query',
            required: true,
            description:
              'The labels joined with `.` (your own user id may hold one: `users.<you>.…` is read as yours).',
            schema: { type: 'string' },
          },
          { name: 'key', in: 'query', required: true, description: 'The key.', schema: { type: 'string' } },
          {
            name: 'refresh_ttl',
            in: 'query',
            required: false,
            description: "`true` restarts the item's TTL.",
            schema: { type: 'boolean' },
          },
        ],
        responses: {
          200: {
            description: 'The item, or `null` when it is absent, expired or not yours to read (one answer for all).',
            json: storeItemJson.nullable(),
          },
        },
      }),
      delete: operation({
        id: 'deleteStoreItem',
        summary: 'Delete an item',
        description: 'Answers 204 whether or not the item existed, and for an item you may not read.',
        access: 'key',
        json: storeDeleteSchema,
        responses: {
          204: { description: 'Deleted, or nothing there you may see.' },
          403: {
            description: 'You may read the item but not write its namespace (`namespace_forbidden`).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
    },
    '/store/items/search': {
      post: operation({
        id: 'searchStoreItems',
        summary: 'Search items',
        description:
          "Items you may read under the prefix, filtered on value fields; with a `query`, ranked by relevance (the larger of the vector's cosine similarity and the query's keyword coverage, as memories are recalled), else newest first.",
        access: 'key',
        json: storeSearchSchema,
        responses: { 200: { description: 'The page of items.', json: z.object({ items: z.array(storeItemJson) }) } },
      }),
    },
    '/store/namespaces': {
      post: operation({
        id: 'listStoreNamespaces',
        summary: 'List namespaces',
        description: 'The namespaces of the items you may read, sorted, by prefix, suffix (`*`: any label) and depth.',
        access: 'key',
        json: storeNamespacesSchema,
        responses: {
          200: { description: 'The page of namespaces.', json: z.object({ namespaces: z.array(z.array(z.string())) }) },
        },
      }),
    },
    '/v1/store/namespaces/{root}/acl': {
      get: operation({
        id: 'getStoreNamespaceAcl',
        summary: "A shared namespace's ACL",
        access: 'key',
        params: [rootParam],
        responses: {
          200: { description: 'Its owner and ACL.', json: namespaceAclJson },
          404: {
            description: 'No shared namespace you may read by that name (absent looks the same).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
      put: operation({
        id: 'setStoreNamespaceAcl',
        summary: 'Create a shared namespace or set its ACL',
        description:
          'On a new first label: creates the namespace, owned by you. Afterwards: replaces its ACL (owner or admin only). Writers read too.',
        access: 'key',
        params: [rootParam],
        json: namespaceAclSchema,
        responses: {
          200: { description: 'The namespace and its ACL.', json: namespaceAclJson },
          403: {
            description: 'You are neither its owner nor an admin (`namespace_forbidden`).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
    },
  },
);
