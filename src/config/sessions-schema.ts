import { z } from 'zod';

/**
 * Browser sessions (the `evident_session` cookie the web UI signs in with): how long one lasts at most, how long it
 * lasts unused, and whether a reverse proxy's `X-Forwarded-Proto`/`X-Forwarded-Host` are trusted (the cookie's `Secure`, the CSRF
 * origin check).
 */
export const sessionsSchema = z
  .object({
    ttlHours: z
      .number()
      .min(0.05)
      .max(24 * 90)
      .default(12)
      .describe('The absolute lifetime of a browser session, in hours: it ends then, however much it is used.'),
    idleMinutes: z
      .number()
      .min(1)
      .max(60 * 24 * 30)
      .default(60)
      .describe('A browser session unused for this many minutes ends.'),
    trustForwardedHeaders: z
      .boolean()
      .default(false)
      .describe(
        'Trust `X-Forwarded-Proto` and `X-Forwarded-Host` from the reverse proxy in front of the server: with `X-Forwarded-Proto: https` the session cookie is `Secure`, and the CSRF origin check compares `Origin` with the forwarded scheme and host. Set it only when a proxy always sets (or strips) those headers.',
      ),
  })
  .prefault({});
export type SessionsConfig = z.infer<typeof sessionsSchema>;
