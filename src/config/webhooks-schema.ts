import { z } from 'zod';

/** `example.com`, `*.example.com` (its subdomains), `*` (any host), or an IP address (`203.0.113.7`, `::1`). */
const HOST_PATTERN = /^(\*|(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?|[0-9a-f:.]+|\[[0-9a-f:.]+\])$/i;

/**
 * Webhooks (`webhook` on a run): a POST of the run's end to a URL the run's creator names, signed with `secret`
 * (HMAC-SHA256), retried with backoff, and sent only to hosts the operator allowed — never to loopback, private,
 * link-local or other internal addresses unless `allowPrivateTargets` says so (see docs/permissions-and-security.md).
 * Without a secret, a run that names a webhook is refused.
 */
export const webhooksSchema = z
  .object({
    secret: z
      .string()
      .min(32, 'webhooks.secret needs at least 32 characters (e.g. `openssl rand -hex 32`)')
      .max(1024)
      .optional()
      .describe(
        'The per-deployment key webhooks are signed with (HMAC-SHA256 in `X-Evident-Signature`). Unset: runs that name a webhook are refused, and this process delivers none.',
      ),
    allowedHosts: z
      .array(
        z
          .string()
          .min(1)
          .max(253)
          .refine((host) => HOST_PATTERN.test(host), 'expected a host name, `*.domain`, `*` or an IP address'),
      )
      .max(256)
      .default([])
      .describe(
        'Hosts webhooks may go to (the variable separates them with commas): exact hosts, `*.example.com` for its subdomains, `*` for any host. Whatever the host, its resolved addresses must be public unless `allowPrivateTargets`.',
      ),
    allowHttp: z.boolean().default(false).describe('Allow `http:` webhook URLs; by default only `https:`.'),
    allowPrivateTargets: z
      .boolean()
      .default(false)
      .describe(
        'Allow webhooks to loopback, private (RFC 1918, fc00::/7) and CGNAT addresses, for a receiver on your own network. Link-local (cloud metadata), unspecified, multicast and reserved addresses stay refused.',
      ),
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(5)
      .describe('Attempts per webhook: a network error, a timeout, 408, 429 or 5xx is retried until this many.'),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(60_000)
      .default(10_000)
      .describe('One attempt, from connecting to the end of the response, at most this long.'),
    initialBackoffMs: z
      .number()
      .int()
      .min(10)
      .max(600_000)
      .default(1_000)
      .describe('The wait before the second attempt; it doubles per attempt (with jitter) up to `maxBackoffMs`.'),
    maxBackoffMs: z
      .number()
      .int()
      .min(10)
      .max(3_600_000)
      .default(60_000)
      .describe("The longest wait between attempts (a receiver's Retry-After is honoured up to this)."),
    maxPayloadBytes: z
      .number()
      .int()
      .min(4_096)
      .max(16_777_216)
      .default(1_048_576)
      .describe('A payload larger than this is sent without the run\'s values (`values_omitted: "too_large"`).'),
    maxResponseBytes: z
      .number()
      .int()
      .min(0)
      .max(1_048_576)
      .default(65_536)
      .describe("At most this much of a receiver's response body is read; the rest is dropped."),
  })
  .prefault({})
  .refine((webhooks) => webhooks.maxBackoffMs >= webhooks.initialBackoffMs, {
    message: 'webhooks.maxBackoffMs must be at least webhooks.initialBackoffMs',
  });
export type WebhooksConfig = z.infer<typeof webhooksSchema>;
