import { meResponseJson } from '../../schemas/me-json.ts';
import { operation, pathGroup } from '../operation.ts';

export const mePaths = pathGroup(
  { name: 'Identity', description: 'Who a key acts as.' },
  {
    '/v1/me': {
      get: operation({
        id: 'me',
        summary: 'Who the key acts as',
        description: 'The user, groups and roles the key maps to; every other call acts as this principal.',
        access: 'key',
        responses: { 200: { description: 'The principal.', json: meResponseJson } },
      }),
    },
  },
);
