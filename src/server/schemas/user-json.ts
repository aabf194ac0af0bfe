import { z } from 'zod';

/**
 * A user as `/v1/users` sends it. `active` is there once the store keeps a user's active flag (a deactivated user's
 * keys and sessions stop working); clients treat its absence as active.
 */
export const userJsonSchema = z
  .object({
    name: z.string(),
    groups: z.array(z.string()),
    roles: z.array(z.enum(['admin', 'member'])),
    created_at: z.string(),
    active: z.boolean().optional(),
  })
  .strict();
export type UserJson = z.infer<typeof userJsonSchema>;

/** An API key as a list shows it: its id and dates, never the key. */
export const apiKeyJsonSchema = z.object({ id: z.string(), user: z.string(), created_at: z.string() }).strict();
export type ApiKeyJson = z.infer<typeof apiKeyJsonSchema>;

/** A key just created: the key itself is in this response once and never again. */
export const createdApiKeyJsonSchema = z.object({ id: z.string(), user: z.string(), key: z.string() }).strict();
export type CreatedApiKeyJson = z.infer<typeof createdApiKeyJsonSchema>;
