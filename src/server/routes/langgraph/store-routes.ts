import { Hono } from 'hono';
import { z } from 'zod';
import type { Principal } from '../../../domain/index.ts';
import { NamespaceForbiddenError, ValidationError } from '../../../errors/index.ts';
import type { Evident } from '../../../evident.ts';
import {
  checkIndexFields,
  checkNamespace,
  indexedTextOf,
  MAX_NAMESPACE_DEPTH,
  MAX_NAMESPACES_LIMIT,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_OFFSET,
  USERS_ROOT,
} from '../../../store/item-rules.ts';
import type { StoreItemHit } from '../../../store/store.ts';
import { readJson, requestLimits } from '../../read-json.ts';
import { assertQueryWithin } from '../../request-limits.ts';
import type { ServerEnv } from '../../server-env.ts';

/** Expired items a write sweeps on its way out: the table never keeps many, and no request pays for all of them. */
const SWEEP_PER_WRITE = 100;

const labels = z.array(z.string()).max(MAX_NAMESPACE_DEPTH);

/** `PUT /store/items`, as `client.store.putItem` sends it. */
export const storePutSchema = z.object({
  namespace: labels.describe(
    'The namespace: `["users", "<your user id>", …]` is yours alone; any other first label is a shared namespace.',
  ),
  key: z.string(),
  value: z.record(z.string(), z.unknown()).describe('A JSON object.'),
  index: z
    .union([z.literal(false), z.array(z.string()), z.null()])
    .optional()
    .describe(
      'What search reads of the value: null or absent every string in it, a list of field paths, or false (not searchable by a query).',
    ),
  ttl: z.number().nullable().optional().describe('Minutes until the item expires; null or absent: never.'),
});

/** `DELETE /store/items`. */
export const storeDeleteSchema = z.object({ namespace: labels, key: z.string() });

/** `POST /store/items/search`, as `client.store.searchItems` sends it. */
export const storeSearchSchema = z.object({
  namespace_prefix: labels.nullable().optional().describe('Labels the namespaces start with (`*`: any one label).'),
  filter: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .describe('Value fields: `{"field": value}` or `{"field": {"$gte": 3}}` ($eq $ne $gt $gte $lt $lte).'),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().default(10),
  offset: z.number().int().min(0).max(MAX_SEARCH_OFFSET).optional().default(0),
  query: z.string().nullable().optional().describe('Ranks by relevance: keyword + vector, as memories are recalled.'),
  refresh_ttl: z.boolean().nullable().optional(),
});

/** `POST /store/namespaces`, as `client.store.listNamespaces` sends it. */
export const storeNamespacesSchema = z.object({
  prefix: labels.nullable().optional(),
  suffix: labels.nullable().optional(),
  max_depth: z.number().int().min(1).max(MAX_NAMESPACE_DEPTH).nullable().optional(),
  limit: z.number().int().min(1).max(MAX_NAMESPACES_LIMIT).optional().default(100),
  offset: z.number().int().min(0).max(MAX_SEARCH_OFFSET).optional().default(0),
});

export const storeItemJson = z.object({
  namespace: z.array(z.string()),
  key: z.string(),
  value: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
  score: z.number().optional().describe('Relevance in 0..1, when the search had a query.'),
});

const toItemJson = (item: StoreItemHit): z.infer<typeof storeItemJson> => ({
  namespace: item.namespace,
  key: item.key,
  value: item.value,
  created_at: item.createdAt,
  updated_at: item.updatedAt,
  ...(item.score === undefined ? {} : { score: item.score }),
});

/**
 * The `namespace` query parameter of `GET /store/items`: labels joined with `.` (the SDK refuses labels with one).
 * A user id may hold a `.`, so the caller's own namespace is read as such first: `users.alice.smith.prefs` is
 * `["users", "alice.smith", "prefs"]` for the user `alice.smith`.
 */
export function parseDottedNamespace(joined: string, caller: string): string[] {
  const own = `${USERS_ROOT}.${caller}`;
  if (joined === own) return [USERS_ROOT, caller];
  if (joined.startsWith(`${own}.`)) return [USERS_ROOT, caller, ...joined.slice(own.length + 1).split('.')];
  return joined.split('.');
}

const queryFlag = (value: string | undefined): boolean => value === 'true' || value === '1';

/**
 * LangGraph's Store API over Evident's memory store (`/store/items`, `/store/items/search`, `/store/namespaces`),
 * answering as the reference server does (204 for put and delete, `null` for an absent item). Every call is the key's
 * principal's: an item they may not read is answered exactly as an absent one (get `null`, delete 204, search and
 * listings without it); only a write to a namespace they may not write is refused, naming nothing but that namespace.
 */
export function storeRoutes(evident: Evident): Hono<ServerEnv> {
  const { store, embedder } = evident;
  const embedOne = async (text: string, kind: 'query' | 'document'): Promise<Float32Array> => {
    const [vector] = await embedder.embed([text], kind);
    if (!vector) throw new Error('the embedder returned no vector');
    return vector;
  };
  const sweep = () => store.sweepExpiredItems(SWEEP_PER_WRITE);

  return new Hono<ServerEnv>()
    .put('/store/items', async (c) => {
      const body = await readJson(c, storePutSchema);
      checkNamespace(body.namespace);
      const index = body.index === false ? false : body.index ? checkIndexFields(body.index) : undefined;
      const text = indexedTextOf(body.value, index);
      const vector = text === undefined ? undefined : await embedOne(text, 'document');
      await store.putItem(c.get('principal'), {
        namespace: body.namespace,
        key: body.key,
        value: body.value,
        ...(text === undefined ? {} : { text }),
        ...(vector === undefined ? {} : { vector }),
        ...(body.ttl === null || body.ttl === undefined ? {} : { ttlMinutes: body.ttl }),
      });
      await sweep();
      return c.body(null, 204);
    })
    .get('/store/items', async (c) => {
      const principal: Principal = c.get('principal');
      const namespace = c.req.query('namespace');
      const key = c.req.query('key');
      if (namespace === undefined || key === undefined)
        throw new ValidationError('GET /store/items needs the namespace and key query parameters.', {
          hint: 'Send ?namespace=users.<you>.prefs&key=<key> (labels joined with ".").',
        });
      const item = await store.getItem(principal, parseDottedNamespace(namespace, principal.id), key, {
        refreshTtl: queryFlag(c.req.query('refresh_ttl')),
      });
      return c.json(item ? toItemJson(item) : null);
    })
    .delete('/store/items', async (c) => {
      const body = await readJson(c, storeDeleteSchema);
      const principal = c.get('principal');
      const outcome = await store.deleteItem(principal, body.namespace, body.key);
      // Refused only where the caller can see the item anyway; absent and unreadable are both a plain 204.
      if (outcome === 'read_only') throw new NamespaceForbiddenError(body.namespace, principal.id, 'delete from');
      await sweep();
      return c.body(null, 204);
    })
    .post('/store/items/search', async (c) => {
      const body = await readJson(c, storeSearchSchema);
      const query = body.query ?? undefined;
      if (query !== undefined) assertQueryWithin(query, requestLimits(c));
      const items = await store.searchItems(c.get('principal'), {
        namespacePrefix: body.namespace_prefix ?? [],
        ...(body.filter ? { filter: body.filter } : {}),
        limit: body.limit,
        offset: body.offset,
        ...(query?.trim() ? { query: { text: query, vector: await embedOne(query, 'query') } } : {}),
        ...(body.refresh_ttl ? { refreshTtl: true } : {}),
      });
      return c.json({ items: items.map(toItemJson) });
    })
    .post('/store/namespaces', async (c) => {
      const body = await readJson(c, storeNamespacesSchema);
      const namespaces = await store.listNamespaces(c.get('principal'), {
        ...(body.prefix ? { prefix: body.prefix } : {}),
        ...(body.suffix ? { suffix: body.suffix } : {}),
        ...(body.max_depth ? { maxDepth: body.max_depth } : {}),
        limit: body.limit,
        offset: body.offset,
      });
      return c.json({ namespaces });
    });
}
