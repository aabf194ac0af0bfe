import { z } from 'zod';
import { operation, pathGroup } from '../operation.ts';

export const systemPaths = pathGroup(
  { name: 'System', description: 'Liveness and this API description. No key needed.' },
  {
    '/health': {
      get: operation({
        id: 'health',
        summary: 'Liveness',
        description: 'Says the server is up; nothing about the store or its content.',
        access: 'public',
        responses: { 200: { description: 'The server is up.', json: z.object({ status: z.literal('ok') }).strict() } },
      }),
    },
    '/openapi.json': {
      get: operation({
        id: 'openapi',
        summary: 'This OpenAPI 3.1 document',
        access: 'public',
        responses: { 200: { description: 'The OpenAPI document of every route.', json: { type: 'object' } } },
      }),
    },
    '/docs': {
      get: operation({
        id: 'docs',
        summary: 'API reference page',
        description: 'This document rendered as one self-contained HTML page (no scripts, no external assets).',
        access: 'public',
        responses: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } } },
      }),
    },
  },
);
