/** The subset of OpenAPI 3.1 Evident's document uses. Schemas are JSON Schema 2020-12 objects. */
export type JsonSchema = Record<string, unknown>;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface MediaTypeObject {
  schema: JsonSchema;
  example?: unknown;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface RequestBodyObject {
  required: boolean;
  description?: string;
  content: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `[]` for routes that need no key; otherwise either key header will do. */
  security: Record<string, string[]>[];
  /** Who may call it: the security schemes cannot say "admin keys only". */
  /** `scim`: the SCIM provisioning token (`scim.token`), a bearer token that is no API key. */
  /** `browser`: the browser's sign-in routes, no key; they answer with redirects and pages, not JSON. */
  'x-evident-access': 'public' | 'key' | 'admin' | 'scim' | 'browser';
  /** A route served only to refuse, on purpose (it has no 2xx): the description says why and what to do instead. */
  'x-evident-refused'?: true;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
}

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>;

export interface TagObject {
  name: string;
  description: string;
}

/** What one route module contributes: its tag, its paths, and any named schemas they refer to. */
export interface PathGroup {
  tag: TagObject;
  paths: Record<string, PathItemObject>;
  schemas?: Record<string, JsonSchema>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  tags: TagObject[];
  paths: Record<string, PathItemObject>;
  components: {
    securitySchemes: Record<string, Record<string, string>>;
    schemas: Record<string, JsonSchema>;
  };
}
