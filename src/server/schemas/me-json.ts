import { z } from 'zod';

/** `GET /v1/me`: who the key (or the session cookie) acts as; a cookie user also learns their CSRF token. */
export const meResponseJson = z
  .object({
    user: z.string(),
    groups: z.array(z.string()),
    roles: z.array(z.enum(['admin', 'member'])),
    csrf_token: z
      .string()
      .optional()
      .describe('Only for a request made with the session cookie: the value to send in `x-csrf-token`.'),
  })
  .strict();
export type MeJson = z.infer<typeof meResponseJson>;
