import { z } from 'zod';
import { userBody } from '../../routes/user-routes.ts';
import { userStatusBody } from '../../routes/user-status-routes.ts';
import { apiKeyJsonSchema, createdApiKeyJsonSchema, userJsonSchema } from '../../schemas/user-json.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';

const userJson = userJsonSchema;
const keyJson = apiKeyJsonSchema;
const userName = pathParam('name', 'The user name.');

export const userPaths = pathGroup(
  { name: 'Users and keys', description: 'Principals and their API keys. Admin only.' },
  {
    '/v1/users': {
      get: operation({
        id: 'listUsers',
        summary: 'List users',
        access: 'admin',
        responses: { 200: { description: 'The users.', json: z.object({ users: z.array(userJson) }).strict() } },
      }),
      post: operation({
        id: 'upsertUser',
        summary: 'Create or update a user',
        description: "Sets the user's groups (and roles); their keys act with the new groups at once.",
        access: 'admin',
        json: userBody,
        responses: { 201: { description: 'The user.', json: z.object({ user: userJson }).strict() } },
      }),
    },
    '/v1/users/{name}': {
      patch: operation({
        id: 'setUserActive',
        summary: 'Deactivate or reactivate a user',
        description:
          "`active: false` refuses the user's keys and sessions from their next request (an admin cannot deactivate " +
          'themselves); `active: true` lets them work again. Recorded in the audit log.',
        access: 'admin',
        params: [userName],
        json: userStatusBody,
        responses: {
          200: { description: 'The user.', json: z.object({ user: userJson }).strict() },
          404: { description: 'No such user.', json: ERROR_SCHEMA_REF },
        },
      }),
    },
    '/v1/users/{name}/keys': {
      get: operation({
        id: 'listApiKeys',
        summary: "List a user's keys",
        description: 'Ids and dates only: a key is shown once, when it is created.',
        access: 'admin',
        params: [userName],
        responses: {
          200: { description: 'The keys.', json: z.object({ keys: z.array(keyJson) }).strict() },
          404: { description: 'No such user.', json: ERROR_SCHEMA_REF },
        },
      }),
      post: operation({
        id: 'createApiKey',
        summary: 'Create a key for a user',
        access: 'admin',
        params: [userName],
        responses: {
          201: {
            description: 'The new key, shown this once.',
            json: createdApiKeyJsonSchema,
          },
          404: { description: 'No such user.', json: ERROR_SCHEMA_REF },
        },
      }),
    },
    '/v1/keys/{id}': {
      delete: operation({
        id: 'revokeApiKey',
        summary: 'Revoke a key',
        description: 'The key stops working at once.',
        access: 'admin',
        params: [pathParam('id', 'The key id (not the key).')],
        responses: {
          200: { description: 'Revoked.', json: z.object({ revoked: z.string() }).strict() },
          404: { description: 'No such key.', json: ERROR_SCHEMA_REF },
        },
      }),
    },
  },
);
