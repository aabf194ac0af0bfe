import { Hono } from 'hono';
import { z } from 'zod';
import { NotFoundError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import type { MemoryRecord } from '../../store/store.ts';
import type { ServerEnv } from '../server-env.ts';

/** A long-term memory as its owner sees it: an item of their own Store API namespace that has searchable text. */
export const memoryJson = z
  .object({
    id: z.string(),
    text: z.string(),
    source: z.string().nullable().describe('Where it came from, e.g. `thread:<id>`.'),
    created_at: z.string(),
    namespace: z
      .array(z.string())
      .describe('The Store API namespace the memory is an item of (`["users", <you>, …]`).'),
    key: z.string().describe('Its key there.'),
  })
  .strict();

const toMemoryJson = (memory: MemoryRecord): z.infer<typeof memoryJson> => ({
  id: memory.id,
  text: memory.text,
  source: memory.source ?? null,
  created_at: memory.createdAt,
  namespace: memory.namespace,
  key: memory.key,
});

/**
 * The key's user's own long-term memories. The store scopes every call to that user inside the query, so another
 * user's memory id gets the same 404 as an id that does not exist: its existence is never revealed.
 */
export function memoryRoutes(evident: Evident): Hono<ServerEnv> {
  const { store } = evident;
  return new Hono<ServerEnv>()
    .get('/memories', async (c) =>
      c.json({ memories: (await store.listMemories(c.get('principal').id)).map(toMemoryJson) }),
    )
    .delete('/memories/:id', async (c) => {
      const id = c.req.param('id');
      if (!(await store.deleteMemory(c.get('principal').id, id))) {
        throw new NotFoundError('memory', id, 'List your memories with GET /v1/memories.');
      }
      return c.json({ deleted: id });
    });
}
