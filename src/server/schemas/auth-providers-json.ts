import { z } from 'zod';

/** `GET /v1/auth/providers` (no key): how the sign-in screen may sign someone in. */
export const authProvidersJson = z
  .object({
    api_key: z.literal(true).describe('Signing in with an API key is always possible.'),
    oidc: z
      .object({
        display_name: z.string().describe('The name for the button: "Sign in with <display_name>".'),
        login_url: z
          .string()
          .describe('Where the browser goes to sign in; add `?return_to=<path>` to come back there.'),
        logout_url: z.string().describe('Where the browser signs out (at the provider too, when it supports it).'),
      })
      .nullable()
      .describe('Sign-in with the identity provider, or null when the server has none configured.'),
  })
  .strict();
export type AuthProvidersJson = z.infer<typeof authProvidersJson>;
