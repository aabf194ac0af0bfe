import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhooksConfig } from '../../config/webhooks-schema.ts';
import { ValidationError } from '../../errors/index.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../../store/run-webhook-rules.ts';
import { classifyAddress, isAllowedClass, type AddressClass } from './ip-address.ts';

/** The settings that decide where a webhook may go. */
export type WebhookTargetPolicy = Pick<WebhooksConfig, 'allowedHosts' | 'allowHttp' | 'allowPrivateTargets'>;

/** One resolved address of a host. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (the system resolver by default; tests give their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** How long resolving a webhook's host may take. */
const RESOLVE_TIMEOUT_MS = 5_000;

/** The system resolver (getaddrinfo), bounded in time: a resolver that does not answer fails the check. */
export const systemResolver: Resolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`Resolving ${hostname} took over ${RESOLVE_TIMEOUT_MS} ms.`), { code: 'ETIMEOUT' }),
        ),
      RESOLVE_TIMEOUT_MS,
    );
  });
  try {
    const found = await Promise.race([dnsLookup(hostname, { all: true, verbatim: true }), late]);
    return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
};

const refused = (message: string, hint: string, setting?: string): ValidationError =>
  new ValidationError(message, { hint, details: setting ? { setting } : {} });

/** A URL's host without IPv6 brackets, lower-cased (the URL parser already wrote IPv4 in dotted form). */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** `webhooks.allowedHosts` entries as hosts the URL parser writes them (`0x7f.1` → `127.0.0.1`, `[::1]` → `::1`). */
const normalizedEntry = (entry: string): string => {
  if (entry === '*') return entry;
  const wildcard = entry.startsWith('*.');
  const host = wildcard ? entry.slice(2) : entry;
  const parsed = URL.canParse(`http://${isIP(host) === 6 ? `[${host}]` : host}/`)
    ? bareHost(new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}/`))
    : host.toLowerCase();
  return wildcard ? `*.${parsed.replace(/\.$/, '')}` : parsed.replace(/\.$/, '');
};

/** Whether the operator allowed the host: exactly, as a subdomain of a `*.domain` entry, or by `*`. */
export function hostAllowed(host: string, allowedHosts: readonly string[]): boolean {
  const name = host.replace(/\.$/, '').toLowerCase();
  return allowedHosts.map(normalizedEntry).some((entry) => {
    if (entry === '*') return true;
    if (entry.startsWith('*.')) return name.endsWith(entry.slice(1)) && name.length > entry.length - 1;
    return entry === name;
  });
}

const CLASS_WORDS: Record<AddressClass, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private address',
  shared: 'a shared (CGNAT) address',
  link_local: 'a link-local address (cloud metadata lives there)',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

/** Refuses an address the policy does not let a webhook reach, saying which setting would (if one would). */
export function checkAddress(host: string, address: string, policy: WebhookTargetPolicy): void {
  const kind = classifyAddress(address) ?? 'reserved';
  if (isAllowedClass(kind, policy.allowPrivateTargets)) return;
  const via = host === address ? '' : ` (${host} resolves to ${address})`;
  const opens = !policy.allowPrivateTargets && isAllowedClass(kind, true);
  throw refused(
    `The webhook's host is ${CLASS_WORDS[kind]}${via}: webhooks go to public addresses only.`,
    opens
      ? 'Use a public host, or set webhooks.allowPrivateTargets (EVIDENT_WEBHOOK_ALLOW_PRIVATE_TARGETS) to reach a receiver on your own network.'
      : 'Use a public host: no setting allows this address.',
    opens ? 'webhooks.allowPrivateTargets' : undefined,
  );
}

/**
 * The checks that need no network: a bounded absolute `https:` URL (`http:` with `webhooks.allowHttp`) without
 * credentials, to a host in `webhooks.allowedHosts`, and, for an IP address host (in any form the URL parser reads:
 * `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`), an address the policy allows. Returns the parsed URL.
 */
export function parseWebhookUrl(raw: string, policy: WebhookTargetPolicy): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH)
    throw refused(
      `The webhook URL has ${raw.length} characters; at most ${MAX_WEBHOOK_URL_LENGTH}.`,
      'Use a shorter URL.',
    );
  if (!URL.canParse(raw) || /[\s\\]/.test(raw))
    throw refused('The webhook is not an absolute URL.', 'Send webhook: "https://your-host/path".');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    throw refused(
      `The webhook URL uses ${url.protocol}; webhooks go to https: URLs.`,
      url.protocol === 'http:'
        ? 'Use https:, or set webhooks.allowHttp (EVIDENT_WEBHOOK_ALLOW_HTTP) to allow http:.'
        : 'Use an https: URL.',
      url.protocol === 'http:' ? 'webhooks.allowHttp' : undefined,
    );
  if (url.username || url.password || /^[a-z]+:\/\/[^/?#]*@/i.test(raw))
    throw refused(
      'The webhook URL carries credentials (user:password@); they are never sent.',
      'Remove them: a receiver checks the X-Evident-Signature header instead.',
    );
  const host = bareHost(url);
  if (!host) throw refused('The webhook URL has no host.', 'Send webhook: "https://your-host/path".');
  if (!hostAllowed(host, policy.allowedHosts))
    throw refused(
      `The webhook host ${host} is not among the allowed hosts.`,
      policy.allowedHosts.length === 0
        ? 'No host is allowed yet: the operator lists receivers in webhooks.allowedHosts (EVIDENT_WEBHOOK_ALLOWED_HOSTS).'
        : 'Ask the operator to add it to webhooks.allowedHosts (EVIDENT_WEBHOOK_ALLOWED_HOSTS).',
      'webhooks.allowedHosts',
    );
  if (isIP(host) !== 0) checkAddress(host, host, policy);
  return url;
}

/** Resolves a host name and checks every address it resolves to (one forbidden address refuses the host). */
export async function resolveChecked(
  host: string,
  policy: WebhookTargetPolicy,
  resolve: Resolver,
): Promise<ResolvedAddress[]> {
  if (isIP(host) !== 0) {
    checkAddress(host, host, policy);
    return [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new ValidationError(`The webhook host ${host} could not be resolved.`, {
      cause: error,
      hint: 'Check the host name.',
    });
  }
  if (addresses.length === 0)
    throw new ValidationError(`The webhook host ${host} has no address.`, { hint: 'Check the host name.' });
  for (const { address } of addresses) checkAddress(host, address, policy);
  return addresses;
}

/** Every check of a webhook URL, its host's resolved addresses included: what a run start does before recording it. */
export async function checkWebhookTarget(
  raw: string,
  policy: WebhookTargetPolicy,
  resolve: Resolver = systemResolver,
): Promise<URL> {
  const url = parseWebhookUrl(raw, policy);
  await resolveChecked(bareHost(url), policy, resolve);
  return url;
}

/**
 * A `lookup` for the socket of a webhook's request: it resolves the host, checks every address, and hands the socket
 * only checked addresses, so the address connected to is the address checked (no second resolution that a DNS
 * rebinding could answer differently). A refused host fails the connection with the guard's ValidationError.
 */
export function guardedLookup(policy: WebhookTargetPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const host = hostname.toLowerCase();
    // A resolver that fails is a network error (retried); an address the guard refuses is a refusal (never sent).
    resolve(host).then(
      (addresses) => {
        try {
          for (const { address } of addresses) checkAddress(host, address, policy);
        } catch (error) {
          callback(error as NodeJS.ErrnoException, '', 4);
          return;
        }
        const family = typeof options === 'object' ? options.family : options;
        const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`No IPv${family} address for ${hostname}.`), { code: 'ENOTFOUND' }), '', 4);
          return;
        }
        if (typeof options === 'object' && options.all) {
          (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, wanted);
          return;
        }
        const [first] = wanted as [ResolvedAddress];
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}
