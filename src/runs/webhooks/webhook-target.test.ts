import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/index.ts';
import {
  checkWebhookTarget,
  hostAllowed,
  parseWebhookUrl,
  type Resolver,
  type WebhookTargetPolicy,
} from './webhook-target.ts';

const ANY_PUBLIC: WebhookTargetPolicy = { allowedHosts: ['*'], allowHttp: true, allowPrivateTargets: false };

/** A resolver with fixed answers: what a hostile DNS zone would answer. */
const zone =
  (answers: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const refusal = (fn: () => unknown): ValidationError => {
  try {
    fn();
  } catch (error) {
    if (ValidationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

const asyncRefusal = async (promise: Promise<unknown>): Promise<ValidationError> => {
  try {
    await promise;
  } catch (error) {
    if (ValidationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('webhook targets', () => {
  it('refuses every spelling of loopback, private, link-local and metadata addresses', () => {
    const attacks = [
      'http://127.0.0.1/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:7f00:1]/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://10.0.0.1/',
      'http://192.168.0.10/',
      'http://172.16.1.1/',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0177.0.0.1/',
      'http://0x7f000001/',
      'http://127.1/',
      'http://017700000001/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::1]/',
    ];
    for (const url of attacks) {
      const error = refusal(() => parseWebhookUrl(url, ANY_PUBLIC));
      expect(error.code, url).toBe('invalid_input');
      expect(error.message, url).toMatch(/address/);
    }
  });

  it('names the setting that opens a private target, and none for link-local', () => {
    const loopback = refusal(() => parseWebhookUrl('http://127.0.0.1/', ANY_PUBLIC));
    expect(loopback.hint).toContain('webhooks.allowPrivateTargets');
    expect(loopback.details).toEqual({ setting: 'webhooks.allowPrivateTargets' });
    const metadata = refusal(() =>
      parseWebhookUrl('http://169.254.169.254/', { ...ANY_PUBLIC, allowPrivateTargets: true }),
    );
    expect(metadata.hint).toContain('no setting allows');
    expect(() => parseWebhookUrl('http://127.0.0.1:8080/', { ...ANY_PUBLIC, allowPrivateTargets: true })).not.toThrow();
  });

  it('refuses credentials, other schemes, http without allowHttp, and overlong URLs', () => {
    const httpsOnly = { ...ANY_PUBLIC, allowHttp: false };
    expect(refusal(() => parseWebhookUrl('https://user:pass@hooks.example.com/', ANY_PUBLIC)).message).toMatch(
      /credentials/,
    );
    expect(refusal(() => parseWebhookUrl('https://user@hooks.example.com/', ANY_PUBLIC)).message).toMatch(
      /credentials/,
    );
    expect(refusal(() => parseWebhookUrl('https://@hooks.example.com/', ANY_PUBLIC)).message).toMatch(/credentials/);
    const http = refusal(() => parseWebhookUrl('http://hooks.example.com/', httpsOnly));
    expect(http.hint).toContain('webhooks.allowHttp');
    expect(() => parseWebhookUrl('https://hooks.example.com/', httpsOnly)).not.toThrow();
    for (const url of [
      'ftp://hooks.example.com/',
      'file:///etc/passwd',
      'gopher://x/',
      'javascript:alert(1)',
      '/relative',
    ]) {
      expect(() => parseWebhookUrl(url, ANY_PUBLIC), url).toThrow(ValidationError);
    }
    const long = `https://hooks.example.com/${'a'.repeat(2100)}`;
    expect(refusal(() => parseWebhookUrl(long, ANY_PUBLIC)).message).toMatch(/at most 2048/);
  });

  it('sends only to allowed hosts: exact, *.domain subdomains, or any with *', () => {
    expect(hostAllowed('hooks.example.com', ['hooks.example.com'])).toBe(true);
    expect(hostAllowed('HOOKS.example.com.', ['hooks.example.com'])).toBe(true);
    expect(hostAllowed('evil.com', ['hooks.example.com'])).toBe(false);
    expect(hostAllowed('a.hooks.example.com', ['*.example.com'])).toBe(true);
    expect(hostAllowed('example.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('evilexample.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('example.com.evil.net', ['*.example.com'])).toBe(false);
    expect(hostAllowed('anything.net', ['*'])).toBe(true);
    expect(hostAllowed('127.0.0.1', ['0x7f.1'])).toBe(true);
    expect(hostAllowed('::1', ['[::1]'])).toBe(true);
    const none = refusal(() => parseWebhookUrl('https://hooks.example.com/', { ...ANY_PUBLIC, allowedHosts: [] }));
    expect(none.hint).toContain('webhooks.allowedHosts');
    expect(none.details).toEqual({ setting: 'webhooks.allowedHosts' });
  });

  it('checks every resolved address: a name that resolves to loopback or metadata is refused', async () => {
    const dns = zone({
      'hooks.example.com': ['93.184.216.34'],
      'localhost.attacker.net': ['127.0.0.1'],
      'metadata.attacker.net': ['169.254.169.254'],
      'mixed.attacker.net': ['93.184.216.34', '10.0.0.5'],
      'v6.attacker.net': ['::ffff:127.0.0.1'],
    });
    await expect(checkWebhookTarget('https://hooks.example.com/x', ANY_PUBLIC, dns)).resolves.toBeInstanceOf(URL);
    for (const host of ['localhost.attacker.net', 'metadata.attacker.net', 'mixed.attacker.net', 'v6.attacker.net']) {
      const error = await asyncRefusal(checkWebhookTarget(`https://${host}/x`, ANY_PUBLIC, dns));
      expect(error.message, host).toMatch(new RegExp(`${host} resolves to`));
    }
    expect((await asyncRefusal(checkWebhookTarget('https://nowhere.example/x', ANY_PUBLIC, dns))).message).toMatch(
      /could not be resolved/,
    );
  });

  it('refuses localhost through the system resolver', async () => {
    const error = await asyncRefusal(checkWebhookTarget('http://localhost:9/hook', ANY_PUBLIC));
    expect(error.message).toMatch(/loopback/);
  });
});
