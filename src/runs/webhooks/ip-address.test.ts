import { describe, expect, it } from 'vitest';
import { classifyAddress, ipv6Bytes, isAllowedClass, type AddressClass } from './ip-address.ts';

const cases: [string, AddressClass][] = [
  // IPv4
  ['8.8.8.8', 'public'],
  ['93.184.216.34', 'public'],
  ['1.1.1.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'shared'],
  ['100.127.255.255', 'shared'],
  ['100.128.0.0', 'public'],
  ['169.254.169.254', 'link_local'],
  ['169.254.0.1', 'link_local'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['203.0.113.9', 'reserved'],
  // IPv6
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf::1', 'link_local'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fec0::1', 'private'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001:4860:4860::8888', 'public'],
  ['2606:4700:4700::1111', 'public'],
  ['2001::1', 'reserved'],
  ['100::1', 'reserved'],
  ['4000::1', 'reserved'],
  // IPv4 inside IPv6: mapped (both spellings), translated, compatible, NAT64, 6to4
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[::ffff:7f00:1]', 'loopback'],
  ['::ffff:169.254.169.254', 'link_local'],
  ['::ffff:a9fe:a9fe', 'link_local'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:8.8.8.8', 'public'],
  ['::ffff:0:127.0.0.1', 'loopback'],
  ['::127.0.0.1', 'reserved'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b:1::1', 'private'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:a9fe:a9fe::1', 'link_local'],
  ['2002:808:808::1', 'public'],
];

describe('the address classifier', () => {
  it.each(cases)('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('says nothing of host names and malformed addresses', () => {
    for (const text of ['localhost', 'example.com', '1.2.3', '1.2.3.4.5', '256.1.1.1', ':::1', 'g::1', '']) {
      expect(classifyAddress(text)).toBeUndefined();
    }
  });

  it('reads every IPv6 spelling into the same 16 bytes', () => {
    const loopback = [...Array(15).fill(0), 1];
    expect(ipv6Bytes('::1')).toEqual(loopback);
    expect(ipv6Bytes('0:0:0:0:0:0:0:1')).toEqual(loopback);
    expect(ipv6Bytes('0000:0000::0001')).toEqual(loopback);
    expect(ipv6Bytes('::ffff:127.0.0.1')).toEqual(ipv6Bytes('::ffff:7f00:1'));
    expect(ipv6Bytes('1:2:3:4:5:6:1.2.3.4')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4]);
  });

  it('opens loopback, private and CGNAT to allowPrivateTargets, and never link-local, unspecified, multicast or reserved', () => {
    expect(isAllowedClass('public', false)).toBe(true);
    for (const kind of ['loopback', 'private', 'shared'] as const) {
      expect(isAllowedClass(kind, false)).toBe(false);
      expect(isAllowedClass(kind, true)).toBe(true);
    }
    for (const kind of ['link_local', 'unspecified', 'multicast', 'reserved'] as const) {
      expect(isAllowedClass(kind, true)).toBe(false);
    }
  });
});
