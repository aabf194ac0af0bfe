import { z } from 'zod';
import type { Principal } from '../../domain/index.ts';

/** A user as the admin routes send it; `active` is false once deactivated (their keys and sessions stop). */
export const userJsonSchema = z
  .object({
    name: z.string(),
    groups: z.array(z.string()),
    roles: z.array(z.enum(['admin', 'member'])),
    active: z.boolean(),
    created_at: z.string(),
  })
  .strict();
export type UserJson = z.infer<typeof userJsonSchema>;

/** A stored user (the store's UserRecord) as JSON. */
export const toUserJson = (user: {
  name: string;
  groups: string[];
  roles: Principal['roles'];
  active: boolean;
  createdAt: string;
}): UserJson => ({
  name: user.name,
  groups: user.groups,
  roles: user.roles,
  active: user.active,
  created_at: user.createdAt,
});

/** An API key as a list shows it: its id and dates, never the key. */
export const apiKeyJsonSchema = z.object({ id: z.string(), user: z.string(), created_at: z.string() }).strict();
export type ApiKeyJson = z.infer<typeof apiKeyJsonSchema>;

/** A key just created: the key itself is in this response once and never again. */
export const createdApiKeyJsonSchema = z.object({ id: z.string(), user: z.string(), key: z.string() }).strict();
export type CreatedApiKeyJson = z.infer<typeof createdApiKeyJsonSchema>;
