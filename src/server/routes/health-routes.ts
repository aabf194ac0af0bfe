import { Hono } from 'hono';

/** Liveness, without a key: says nothing about the store's content. */
export function healthRoutes(): Hono {
  return new Hono().get('/health', (c) => c.json({ status: 'ok' }));
}
