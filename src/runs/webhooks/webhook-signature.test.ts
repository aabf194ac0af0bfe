import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from './webhook-signature.ts';

const SECRET = 'a'.repeat(64);
const BODY = JSON.stringify({ run_id: 'r1', values: { answer: 'Yes.' } });

describe('webhook signatures', () => {
  it('signs <timestamp>.<body> with HMAC-SHA256, and verifies what it signed', () => {
    const header = signWebhook(SECRET, BODY, 1_700_000_000);
    const expected = createHmac('sha256', SECRET).update(`1700000000.${BODY}`).digest('hex');
    expect(header).toBe(`t=1700000000,v1=${expected}`);
    expect(verifyWebhookSignature({ secret: SECRET, body: BODY, signature: header, now: 1_700_000_010 })).toBe(true);
    expect(
      verifyWebhookSignature({ secret: SECRET, body: Buffer.from(BODY), signature: header, now: 1_700_000_010 }),
    ).toBe(true);
  });

  it('refuses a changed body, another secret, an old or future timestamp, and malformed headers', () => {
    const header = signWebhook(SECRET, BODY, 1_700_000_000);
    const now = 1_700_000_000;
    expect(verifyWebhookSignature({ secret: SECRET, body: `${BODY} `, signature: header, now })).toBe(false);
    expect(verifyWebhookSignature({ secret: 'b'.repeat(64), body: BODY, signature: header, now })).toBe(false);
    expect(verifyWebhookSignature({ secret: SECRET, body: BODY, signature: header, now: now + 301 })).toBe(false);
    expect(verifyWebhookSignature({ secret: SECRET, body: BODY, signature: header, now: now - 301 })).toBe(false);
    expect(
      verifyWebhookSignature({
        secret: SECRET,
        body: BODY,
        signature: header,
        now: now + 3000,
        toleranceSeconds: 3600,
      }),
    ).toBe(true);
    // The timestamp is signed: moving it invalidates the signature.
    const moved = header.replace('t=1700000000', 't=1700000100');
    expect(verifyWebhookSignature({ secret: SECRET, body: BODY, signature: moved, now: 1_700_000_100 })).toBe(false);
    for (const bad of [
      undefined,
      null,
      '',
      'v1=abc',
      't=1700000000',
      't=x,v1=00',
      `t=1700000000,v1=${'0'.repeat(64)}`,
    ]) {
      expect(verifyWebhookSignature({ secret: SECRET, body: BODY, signature: bad, now })).toBe(false);
    }
    expect(verifyWebhookSignature({ secret: '', body: BODY, signature: header, now })).toBe(false);
  });

  it('accepts any of several v1 values (a receiver rotating secrets checks one at a time)', () => {
    const header = signWebhook(SECRET, BODY, 1_700_000_000);
    const other = signWebhook('c'.repeat(64), BODY, 1_700_000_000).split(',')[1];
    const both = `${header},${other}`;
    expect(verifyWebhookSignature({ secret: SECRET, body: BODY, signature: both, now: 1_700_000_000 })).toBe(true);
    expect(verifyWebhookSignature({ secret: 'c'.repeat(64), body: BODY, signature: both, now: 1_700_000_000 })).toBe(
      true,
    );
  });
});
