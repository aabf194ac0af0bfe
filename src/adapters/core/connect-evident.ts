import type { AuditSurface } from '../../store/store.ts';
import type { EvidentConnection } from './evident-connection.ts';
import { httpConnection, type HttpTarget } from './http-connection.ts';
import { inProcessConnection, type InProcessTarget } from './in-process-connection.ts';

/** Where an adapter reaches Evident: in process, over HTTP, or through a connection built already. */
export type EvidentTarget = InProcessTarget | HttpTarget | { connection: EvidentConnection };

/** The framework an adapter serves, as the audit log names the surface an in-process search or ask came through. */
export type AdapterSurface = Extract<AuditSurface, 'langchain' | 'ai-sdk'>;

/**
 * The connection for a target; validates it at once, so a bad URL, key or principal fails when the adapter is built.
 * Over HTTP the server records its own surface (`http`, `openai`).
 */
export function connectEvident(target: EvidentTarget, surface: AdapterSurface): EvidentConnection {
  if ('connection' in target) return target.connection;
  if ('evident' in target) return inProcessConnection(target, surface);
  return httpConnection(target);
}
