import { z } from 'zod';
import type { SessionRecord } from '../../store/ports/session-store.ts';

/** A session as listed: never its token, its CSRF token or its ID token. */
export const sessionJson = z
  .object({
    id: z.string(),
    user: z.string(),
    via: z.enum(['key', 'oidc']),
    created_at: z.string(),
    last_seen_at: z.string(),
    idle_expires_at: z.string(),
    expires_at: z.string(),
    current: z.boolean().describe('Whether this is the session the request was made with.'),
  })
  .strict();
export type SessionJson = z.infer<typeof sessionJson>;

/** The signed-in browser's own session: what the UI needs, with the CSRF token it sends on state-changing requests. */
export const currentSessionJson = z
  .object({
    id: z.string(),
    user: z.string(),
    via: z.enum(['key', 'oidc']),
    csrf_token: z.string(),
    created_at: z.string(),
    idle_expires_at: z.string(),
    expires_at: z.string(),
  })
  .strict();
export type CurrentSessionJson = z.infer<typeof currentSessionJson>;

export const toSessionJson = (session: SessionRecord, currentId?: string): SessionJson => ({
  id: session.id,
  user: session.user,
  via: session.via,
  created_at: session.createdAt,
  last_seen_at: session.lastSeenAt,
  idle_expires_at: session.idleExpiresAt,
  expires_at: session.expiresAt,
  current: session.id === currentId,
});

export const toCurrentSessionJson = (session: SessionRecord): CurrentSessionJson => ({
  id: session.id,
  user: session.user,
  via: session.via,
  csrf_token: session.csrfToken,
  created_at: session.createdAt,
  idle_expires_at: session.idleExpiresAt,
  expires_at: session.expiresAt,
});
