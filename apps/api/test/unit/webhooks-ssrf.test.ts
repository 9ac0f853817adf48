import { describe, expect, it } from 'vitest';
import { guardedLookup, nonPublicRange, refusedHost } from '../../src/webhooks/ssrf.js';

describe('which addresses are public', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
    ['2001:db8::1', 'reserved'],
    ['fec0::1', 'deprecatedSiteLocal'],
  ])('%s is not public (%s)', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(nonPublicRange(address)).toBeNull();
    },
  );
});

describe('URLs refused as written', () => {
  it('refuses localhost names and literal non-public addresses', () => {
    expect(refusedHost('http://localhost:3000/x')).toMatch(/localhost/);
    expect(refusedHost('http://LOCALHOST./x')).toMatch(/localhost/);
    expect(refusedHost('http://db.localhost/x')).toMatch(/localhost/);
    expect(refusedHost('http://127.0.0.1/x')).toMatch(/loopback address \(127\.0\.0\.1\)/);
    expect(refusedHost('http://[::1]:8080/x')).toMatch(/loopback address \(::1\)/);
    expect(refusedHost('http://0x7f.1/x')).toMatch(/loopback/);
    expect(refusedHost('http://10.0.0.8/x')).toMatch(/private address/);
  });

  it('leaves names to the lookup at delivery time', () => {
    expect(refusedHost('https://hooks.example.com/x')).toBeNull();
    expect(refusedHost('https://8.8.8.8/x')).toBeNull();
  });
});

describe('the connection lookup', () => {
  const lookup = (allowPrivate: boolean, host: string, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      guardedLookup(allowPrivate)(host, { all }, (err, address) => resolve({ err, address })),
    );

  it('refuses a name that resolves to loopback, whichever way Node asks', async () => {
    for (const all of [true, false]) {
      const { err } = await lookup(false, 'localhost', all);
      expect(err?.message).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    }
  });

  it('lets it through when private addresses are allowed', async () => {
    expect((await lookup(true, 'localhost', false)).err).toBeNull();
    const { err, address } = await lookup(true, 'localhost', true);
    expect(err).toBeNull();
    expect(address).toEqual(expect.arrayContaining([expect.objectContaining({ family: expect.any(Number) })]));
  });
});
