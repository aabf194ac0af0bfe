import type { Env, Hono } from 'hono';
import { inspectRoutes } from 'hono/dev';
import { HTTP_METHODS, type OpenApiDocument } from './openapi-types.ts';

/** A Hono route path in OpenAPI form: `/v1/documents/:docId{.+}` → `/v1/documents/{docId}`, a trailing `*` → `{path}`. */
export function toOpenApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{(?:[^{}]|\{[^{}]*\})*\})?\??/g, '{$1}').replace(/\/\*$/, '/{path}');
}

/** `GET /v1/me`-style keys of the app's registered handlers (middleware excluded), in OpenAPI path form. */
export function appRouteKeys<E extends Env>(app: Hono<E>): string[] {
  const keys = inspectRoutes(app)
    .filter((route) => !route.isMiddleware)
    .map((route) => `${route.method.toUpperCase()} ${toOpenApiPath(route.path)}`);
  return [...new Set(keys)].sort();
}

export function documentedRouteKeys(document: OpenApiDocument): string[] {
  const keys: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) if (item[method]) keys.push(`${method.toUpperCase()} ${path}`);
  }
  return keys.sort();
}
