import { z } from 'zod';

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
