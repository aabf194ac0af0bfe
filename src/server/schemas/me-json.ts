import { z } from 'zod';

/** `GET /v1/me`: who the key acts as. */
export const meResponseJson = z
  .object({ user: z.string(), groups: z.array(z.string()), roles: z.array(z.enum(['admin', 'member'])) })
  .strict();
export type MeJson = z.infer<typeof meResponseJson>;
