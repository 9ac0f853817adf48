import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Which peers may tell us the client's address through `X-Forwarded-For`: nobody (`false`), the
 * nearest N hops, or the proxies at these addresses. Never "everyone": that lets any client pick
 * its own address and walk past the per-IP login limit.
 */
export type TrustProxy = false | number | readonly string[];

/** proxy-addr's names for address ranges, which Fastify accepts beside addresses. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const WHAT_TO_GIVE =
  'give the number of proxies in front of the app (e.g. 1) or their addresses (e.g. 10.0.0.2, 10.1.0.0/16, loopback)';

/** An address, an address/prefix-length range, or a range name; node:net decides what an address is. */
function isTrustEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry.toLowerCase())) return true;
  const slash = entry.indexOf('/');
  if (slash === -1) return isIP(entry) !== 0;
  const family = isIP(entry.slice(0, slash));
  const prefix = entry.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** `TRUST_PROXY`: unset, empty, false or 0 trust nobody; `true` is refused, saying what to give instead. */
export const envTrustProxy = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx): TrustProxy => {
      if (v === undefined || v === '' || v.toLowerCase() === 'false') return false;
      if (v.toLowerCase() === 'true') {
        ctx.addIssue({
          code: 'custom',
          message: `"true" would trust every hop, so any client could choose its own address with X-Forwarded-For; ${WHAT_TO_GIVE}`,
        });
        return z.NEVER;
      }
      if (/^\d+$/.test(v)) {
        const hops = Number(v);
        if (Number.isSafeInteger(hops)) return hops === 0 ? false : hops;
      }
      const entries = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        // proxy-addr knows its range names in lower case only.
        .map((s) => (RANGE_NAMES.has(s.toLowerCase()) ? s.toLowerCase() : s));
      const bad = entries.filter((entry) => !isTrustEntry(entry));
      if (entries.length === 0 || bad.length > 0) {
        const shown = bad.length > 0 ? bad.map((b) => `"${b}"`).join(', ') : `"${v}"`;
        ctx.addIssue({
          code: 'custom',
          message: `${shown} is not a hop count, an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; ${WHAT_TO_GIVE}`,
        });
        return z.NEVER;
      }
      return entries;
    });

type FastifyTrustProxy = false | string[] | ((address: string, hop: number) => boolean);

/**
 * The value for Fastify's `trustProxy`. Fastify 5.12 takes a bare number as "trust nobody" (it
 * cannot check who the nearest peer is), so a hop count is handed over as the function Express
 * compiles for `trust proxy = N`: the nearest N peers are believed, whoever they are.
 */
export function fastifyTrustProxy(trust: TrustProxy): FastifyTrustProxy {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}
