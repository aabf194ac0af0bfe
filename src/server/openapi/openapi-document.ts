import { errorBodyJson } from './error-schema.ts';
import { jsonSchemaOf } from './json-schema.ts';
import type { OpenApiDocument, PathGroup } from './openapi-types.ts';
import { auditPaths } from './paths/audit-paths.ts';
import { documentPaths } from './paths/document-paths.ts';
import { feedbackPaths } from './paths/feedback-paths.ts';
import { langgraphAssistantPaths } from './paths/langgraph-assistant-paths.ts';
import { langgraphRunPaths } from './paths/langgraph-run-paths.ts';
import { cronPaths } from './paths/cron-paths.ts';
import { langgraphThreadPaths } from './paths/langgraph-thread-paths.ts';
import { memoryPaths } from './paths/memory-paths.ts';
import { storePaths } from './paths/store-paths.ts';
import { mcpPaths } from './paths/mcp-paths.ts';
import { openAiPaths } from './paths/openai-paths.ts';
import { mePaths } from './paths/me-paths.ts';
import { searchPaths } from './paths/search-paths.ts';
import { sessionPaths } from './paths/session-paths.ts';
import { signInPaths } from './paths/sign-in-paths.ts';
import { systemPaths } from './paths/system-paths.ts';
import { userPaths } from './paths/user-paths.ts';
import { scimPaths } from './paths/scim-paths.ts';
import { webhookPaths } from './paths/webhook-paths.ts';

/** Every route group's description, in the order the docs page shows them. A new route module adds its group here. */
export const PATH_GROUPS: readonly PathGroup[] = [
  systemPaths,
  mePaths,
  sessionPaths,
  signInPaths,
  searchPaths,
  documentPaths,
  memoryPaths,
  storePaths,
  langgraphAssistantPaths,
  langgraphThreadPaths,
  langgraphRunPaths,
  cronPaths,
  openAiPaths,
  mcpPaths,
  userPaths,
  auditPaths,
  feedbackPaths,
  webhookPaths,
  scimPaths,
];

/** The OpenAPI 3.1 document of the whole HTTP API, assembled from the route groups' own descriptions. */
export function buildOpenApiDocument(groups: readonly PathGroup[] = PATH_GROUPS): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const group of groups) {
    for (const [path, item] of Object.entries(group.paths)) {
      for (const method of Object.keys(item)) {
        if (paths[path]?.[method as keyof typeof item])
          throw new Error(`${method.toUpperCase()} ${path} is described twice.`);
      }
      paths[path] = { ...paths[path], ...item };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Evident API',
      version: '0.1.0',
      description:
        "Evidence-first retrieval over an organisation's documents. Every route except those tagged System needs an API key (`Authorization: Bearer <key>` or `x-api-key`); the key's principal (user, groups, roles) filters every read inside the store. Errors are JSON `{error: {code, message, hint}}`.",
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    tags: groups.map((group) => group.tag),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `evident keys create <user>`, or EVIDENT_ADMIN_KEY.',
        },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'The same key in an `x-api-key` header.',
        },
      },
      schemas: Object.assign(
        { Error: jsonSchemaOf(errorBodyJson, 'output') },
        ...groups.map((group) => group.schemas ?? {}),
      ),
    },
  };
}
