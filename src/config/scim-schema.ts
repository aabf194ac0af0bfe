import { z } from 'zod';

/**
 * SCIM 2.0 provisioning (`/scim/v2`): the bearer token of the identity provider's provisioning client (Entra ID,
 * Okta, …) and the bounds of what it may send. Without a token, `/scim/v2` answers 404.
 */
export const scimSchema = z
  .object({
    token: z
      .string()
      .min(32, 'scim.token needs at least 32 characters (e.g. `openssl rand -hex 32`)')
      .max(1024)
      .optional()
      .describe(
        'The bearer token the provisioning client sends (`EVIDENT_SCIM_TOKEN`). Unset: SCIM is off and `/scim/v2` answers 404. It is no user and opens no `/v1` route.',
      ),
    maxPageSize: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(100)
      .describe('The most resources one list (GET /Users, /Groups) returns; a larger `count` is lowered to it.'),
    maxFilterChars: z
      .number()
      .int()
      .min(16)
      .max(4096)
      .default(512)
      .describe('The longest `filter` a list accepts; a longer one is refused (400 invalidFilter).'),
    maxOperations: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(100)
      .describe('The most operations one PATCH may carry; more is refused (400 tooMany).'),
  })
  .prefault({});
export type ScimConfig = z.infer<typeof scimSchema>;
