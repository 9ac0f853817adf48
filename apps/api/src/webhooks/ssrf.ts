import dns, { type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The guard against server-side request forgery: an endpoint's URL must not make the server
 * call itself, its network or its cloud's metadata service. Only public unicast addresses are
 * reached unless WEBHOOKS_ALLOW_PRIVATE=true. The check sits in the connection's own DNS lookup,
 * so a name that resolves to a public address when saved and a private one when used (DNS
 * rebinding) is refused at the moment it would be connected to.
 */

/** IPv6 addresses handed out for the public internet (2000::/3); everything else is special. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** What kind of address this is when it is not public (`loopback`, `private`, …), or null when it is. */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== 'unicast') return range;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return null;
}

const article = (range: string) => (/^[aeiou]/i.test(range) ? 'an' : 'a');

/** The refusal a delivery attempt logs: which name, which address, and how to allow it. */
export class PrivateAddressRefused extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor(host: string, address: string, range: string) {
    const what = host === address ? address : `${host} resolves to ${address}`;
    super(
      `refused: ${what}, ${article(range)} ${range} address (set WEBHOOKS_ALLOW_PRIVATE=true to deliver to private addresses)`,
    );
  }
}

/** The URL's host as an address when it is an IP literal (`[::1]` → `::1`), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : null;
}

/**
 * Why the server refuses this URL's host as it is written (a literal non-public address or a
 * `localhost` name), or null. A name is judged when it is resolved, by `guardedLookup`.
 */
export function refusedHost(url: string): string | null {
  const { hostname } = new URL(url);
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return 'The URL points at this server (localhost): deliveries there are refused. Use a public address.';
  }
  const address = literalAddress(host);
  const range = address ? nonPublicRange(address) : null;
  if (address && range) {
    return `The URL points at ${article(range)} ${range} address (${address}): deliveries there are refused. Use a public address.`;
  }
  return null;
}

/**
 * A `lookup` for http.request: resolves as usual, keeps only the addresses allowed, and fails
 * the connection when none is left. Node calls it with `all: true` when it races IPv4 and IPv6.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const allowed = allowPrivate ? addresses : addresses.filter((a) => nonPublicRange(a.address) === null);
      const first = allowed[0];
      if (!first) {
        const refused = addresses[0];
        const error = refused
          ? new PrivateAddressRefused(hostname, refused.address, nonPublicRange(refused.address) ?? 'unknown')
          : new Error(`no address found for ${hostname}`);
        return callback(error as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, first.address, first.family);
    });
  };
}
