import { isIP } from 'node:net';

/**
 * What an IP address is, as far as sending a webhook to it goes. Only `public` is a destination by default; the
 * operator's `webhooks.allowPrivateTargets` opens `loopback`, `private` and `shared` (CGNAT); the rest are never one.
 */
export type AddressClass =
  | 'public'
  /** 127.0.0.0/8, ::1 */
  | 'loopback'
  /** RFC 1918 (10/8, 172.16/12, 192.168/16), unique local fc00::/7, site-local fec0::/10, local-use NAT64 */
  | 'private'
  /** Shared address space (CGNAT) 100.64.0.0/10 */
  | 'shared'
  /** 169.254.0.0/16 (cloud metadata among them), fe80::/10 */
  | 'link_local'
  /** 0.0.0.0/8, :: */
  | 'unspecified'
  /** 224.0.0.0/4, ff00::/8 */
  | 'multicast'
  /** Documentation, benchmarking, protocol-assignment, discard, future-use and broadcast ranges: routed nowhere real. */
  | 'reserved';

/** The classes `webhooks.allowPrivateTargets` opens: a receiver on the operator's own network. */
export const PRIVATE_TARGET_CLASSES: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'shared']);

/** Whether a webhook may be sent to an address of this class under the operator's setting. */
export const isAllowedClass = (kind: AddressClass, allowPrivateTargets: boolean): boolean =>
  kind === 'public' || (allowPrivateTargets && PRIVATE_TARGET_CLASSES.has(kind));

interface Range {
  bytes: readonly number[];
  bits: number;
  kind: AddressClass;
}

const v4 = (cidr: string, kind: AddressClass): Range => {
  const [address, bits] = cidr.split('/') as [string, string];
  return { bytes: address.split('.').map(Number), bits: Number(bits), kind };
};

// Most specific first is not needed: the ranges do not overlap.
const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link_local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'multicast'),
  // 240.0.0.0/4 includes the broadcast address 255.255.255.255.
  v4('240.0.0.0/4', 'reserved'),
];

const inRange = (bytes: readonly number[], range: Range): boolean => {
  let bits = range.bits;
  for (let i = 0; bits > 0; i += 1, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
};

/** The class of an IPv4 address given as its four bytes. */
export function classifyIpv4Bytes(bytes: readonly number[]): AddressClass {
  return IPV4_RANGES.find((range) => inRange(bytes, range))?.kind ?? 'public';
}

/** An IPv6 address as 16 bytes (with an embedded dotted IPv4 tail, a zone id dropped); undefined if it is not one. */
export function ipv6Bytes(text: string): number[] | undefined {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(address) !== 6) return undefined;
  let head = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const four = (dotted[1] as string).split('.').map(Number);
    tail.push(((four[0] ?? 0) << 8) | (four[1] ?? 0), ((four[2] ?? 0) << 8) | (four[3] ?? 0));
    head = address.slice(0, -(dotted[1] as string).length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left = '', right] = head.split('::') as [string, string | undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const before = groups(left);
  const after = [...(right === undefined ? [] : groups(right)), ...tail];
  const missing = 8 - before.length - after.length;
  const words = right === undefined && dotted ? [...before, ...tail] : [...before, ...Array(missing).fill(0), ...after];
  if (words.length !== 8 || words.some((word) => !Number.isInteger(word) || word < 0 || word > 0xffff))
    return undefined;
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

const startsWith = (bytes: readonly number[], prefix: readonly number[]): boolean =>
  prefix.every((byte, index) => bytes[index] === byte);

/** The class of an IPv6 address given as its 16 bytes; forms that carry an IPv4 address are classed by it. */
export function classifyIpv6Bytes(bytes: readonly number[]): AddressClass {
  const first = bytes[0] ?? 0;
  const second = bytes[1] ?? 0;
  const zeros = (count: number) => bytes.slice(0, count).every((byte) => byte === 0);
  const last4 = bytes.slice(12, 16);
  if (zeros(16)) return 'unspecified';
  if (zeros(15) && bytes[15] === 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d and the IPv4-translated ::ffff:0:a.b.c.d reach the IPv4 address.
  if (zeros(10) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyIpv4Bytes(last4);
  if (zeros(8) && bytes[8] === 0xff && bytes[9] === 0xff && bytes[10] === 0 && bytes[11] === 0)
    return classifyIpv4Bytes(last4);
  // The deprecated IPv4-compatible ::a.b.c.d: never a real destination.
  if (zeros(12)) return 'reserved';
  // NAT64's well-known prefix 64:ff9b::/96 reaches the embedded IPv4 address; its local-use 64:ff9b:1::/48 is private.
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return classifyIpv4Bytes(last4);
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01])) return 'private';
  // 6to4 2002::/16 carries an IPv4 address in bytes 2..5.
  if (first === 0x20 && second === 0x02) return classifyIpv4Bytes(bytes.slice(2, 6));
  // Discard-only 100::/64.
  if (startsWith(bytes, [0x01, 0x00, 0, 0, 0, 0, 0, 0])) return 'reserved';
  // Teredo 2001::/32 (an obfuscated IPv4 address) and the rest of IETF protocol assignments 2001::/23; documentation 2001:db8::/32.
  if (first === 0x20 && second === 0x01 && (bytes[2] ?? 0) < 0x02) return 'reserved';
  if (startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8])) return 'reserved';
  // Documentation 3fff::/20.
  if (first === 0x3f && second === 0xff && ((bytes[2] ?? 0) & 0xf0) === 0) return 'reserved';
  if ((first & 0xfe) === 0xfc) return 'private';
  if (first === 0xfe && (second & 0xc0) === 0x80) return 'link_local';
  if (first === 0xfe && (second & 0xc0) === 0xc0) return 'private';
  if (first === 0xff) return 'multicast';
  // Global unicast is 2000::/3; anything else is unassigned.
  return (first & 0xe0) === 0x20 ? 'public' : 'reserved';
}

/**
 * The class of an address as a resolver or a URL gives it: dotted IPv4 (`127.0.0.1`) or IPv6 with or without brackets
 * (`[::ffff:7f00:1]`). Undefined when the text is not an IP address (a host name).
 */
export function classifyAddress(text: string): AddressClass | undefined {
  if (isIP(text) === 4) return classifyIpv4Bytes(text.split('.').map(Number));
  const bytes = ipv6Bytes(text);
  return bytes ? classifyIpv6Bytes(bytes) : undefined;
}
