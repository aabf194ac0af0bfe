import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries a webhook's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Evident-Signature';
/** The webhook's id, the same on every attempt: a receiver that has seen it already ignores the repeat. */
export const WEBHOOK_EVENT_ID_HEADER = 'X-Evident-Event-Id';

/** How old a signature a receiver accepts by default: five minutes either way. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/** The hex HMAC-SHA256, keyed with the secret, of `<timestamp>.<body>`: what `v1=` carries. */
export function webhookSignatureOf(secret: string, timestamp: number, body: string | Uint8Array): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(body);
  return hmac.digest('hex');
}

/** The `X-Evident-Signature` value for a body sent at `timestamp` (unix seconds). */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${webhookSignatureOf(secret, timestamp, body)}`;
}

export interface VerifyWebhookSignatureInput {
  /** The deployment's `webhooks.secret`. */
  secret: string;
  /** The request body exactly as received (the raw bytes or text, before any JSON parsing). */
  body: string | Uint8Array;
  /** The `X-Evident-Signature` header's value. */
  signature: string | null | undefined;
  /** Reject signatures older (or newer) than this many seconds: a replayed request fails. Default 300. */
  toleranceSeconds?: number;
  /** Now, in unix seconds (tests); the clock by default. */
  now?: number;
}

/**
 * For a webhook receiver: whether a request is a webhook of this deployment, unchanged and recent. True when the
 * header's `t` is within the tolerance of now and one of its `v1` values is the HMAC-SHA256 of `<t>.<body>` under the
 * secret (compared in constant time). Deduplicate deliveries by the `X-Evident-Event-Id` header.
 */
export function verifyWebhookSignature(input: VerifyWebhookSignatureInput): boolean {
  const { secret, body, signature } = input;
  if (!secret || typeof signature !== 'string' || signature.length > 4096) return false;
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of signature.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2) as [string, string | undefined];
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) candidates.push(value.toLowerCase());
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(webhookSignatureOf(secret, timestamp, body), 'hex');
  return candidates.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
}
