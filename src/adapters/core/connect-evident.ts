import type { EvidentConnection } from './evident-connection.ts';
import { httpConnection, type HttpTarget } from './http-connection.ts';
import { inProcessConnection, type InProcessTarget } from './in-process-connection.ts';

/** Where an adapter reaches Evident: in process, over HTTP, or through a connection built already. */
export type EvidentTarget = InProcessTarget | HttpTarget | { connection: EvidentConnection };

/** The connection for a target; validates it at once, so a bad URL, key or principal fails when the adapter is built. */
export function connectEvident(target: EvidentTarget): EvidentConnection {
  if ('connection' in target) return target.connection;
  if ('evident' in target) return inProcessConnection(target);
  return httpConnection(target);
}
