import { z } from 'zod';
import { constrainInput } from '../json-schema';
import { codePointName, plainText } from '../text';

/**
 * An endpoint's URL, the one rule for the form, both doors and the OpenAPI document: an http(s)
 * IRI (RFC 3987) with a host, without a user:password (the secret signs instead) or a #fragment
 * (never sent). It is stored as the URI it maps to (RFC 3987 §3.1): the host as the URL parser
 * writes it in ASCII (an internationalised name as its punycode: `http://bücher.example/` →
 * `http://xn--bcher-kva.example/`), any other non-ASCII character percent-encoded, the rest as
 * typed. So what is stored, shown and called is one ASCII URI, and a host that is this server
 * written another way (`ｌｏｃａｌｈｏｓｔ`) reaches the address guard as the name it stands for.
 * Whether a host may be private is the server's call (`WEBHOOKS_ALLOW_PRIVATE`).
 */

const MAX_LENGTH = 2000;
const UNRESERVED = String.raw`A-Za-z0-9\-._~`;
const SUB_DELIMS = `!$&'()*+,;=`;
const PCT_ENCODED = '%[0-9A-Fa-f]{2}';
/**
 * RFC 3987's `ucschar` (planes 1 to 13 but their last two code points, and most of plane 14)
 * without the spaces it holds (U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000): a URL
 * holds no space in any script, and one pasted with it is a mistake to point out.
 */
const UCSCHAR = [
  String.raw`\u00A1-\u167F\u1681-\u1FFF\u200B-\u202E\u2030-\u205E\u2060-\u2FFF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF`,
  ...Array.from({ length: 13 }, (_, i) => `\\u{${(i + 1).toString(16)}0000}-\\u{${(i + 1).toString(16)}FFFD}`),
  String.raw`\u{E1000}-\u{EFFFD}`,
].join('');
/** RFC 3987's `iprivate`: the private-use code points, allowed in a query only. */
const IPRIVATE = String.raw`\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}`;
/** 0 to 65535, leading zeros allowed (the URL parser reads `:0080` as 80), or nothing after the colon. */
const PORT = '(?::(?:0*(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?)?';

/** `^http(s)://host[:port][/path][?query]$` over the characters given beside ASCII's. */
function httpUrlPattern(ucschar: string, iprivate: string): string {
  const host = `(?:\\[[0-9A-Fa-f:.]+\\]|[${UNRESERVED}${SUB_DELIMS}${ucschar}]+)`;
  const path = `(?:/(?:[${UNRESERVED}${SUB_DELIMS}:@/${ucschar}]|${PCT_ENCODED})*)?`;
  const query = `(?:\\?(?:[${UNRESERVED}${SUB_DELIMS}:@/?${ucschar}${iprivate}]|${PCT_ENCODED})*)?`;
  return `^[Hh][Tt][Tt][Pp][Ss]?://${host}${PORT}${path}${query}$`;
}

/** What a webhook URL may be as sent: an http(s) IRI as above (ECMAScript, `u` flag). */
export const WEBHOOK_URL_PATTERN = httpUrlPattern(UCSCHAR, IPRIVATE);
const IRI = new RegExp(WEBHOOK_URL_PATTERN, 'u');
/** What it is once stored: the same in ASCII, an RFC 3986 URI. */
const URI = new RegExp(httpUrlPattern('', ''), 'u');
/** Any character an http(s) IRI can hold somewhere, a `%`, `[` and `]` included. */
const IRI_CHARACTER = new RegExp(`[${UNRESERVED}${SUB_DELIMS}:/?@%\\[\\]${UCSCHAR}${IPRIVATE}]`, 'u');

const ABSOLUTE = 'Give an absolute URL, such as https://example.com/hooks.';

function cannotHold(character: string): string {
  if (/\s/u.test(character)) {
    const name = character === ' ' ? 'a space' : `a space character (${codePointName(character)})`;
    return `The URL cannot hold ${name}. In its path or query, write it as ${encodeURIComponent(character)}.`;
  }
  return `The URL cannot hold “${character}” (${codePointName(character)}). In its path or query, write it as ${encodeURIComponent(character)}.`;
}

/** Why the authority (`host[:port]`) breaks the rule, once every character is one a URL holds. */
function authorityProblem(authority: string): string {
  const bracketed = authority.startsWith('[');
  const hostEnd = bracketed ? authority.indexOf(']') + 1 : authority.search(/:|$/);
  const host = authority.slice(0, hostEnd);
  const port = authority.slice(hostEnd);
  if (host === '') return ABSOLUTE;
  if (port !== '' && !new RegExp(`^${PORT}$`).test(port)) return 'The port must be a number from 0 to 65535.';
  return `The host “${host}” is not a domain name or an IP address.`;
}

/**
 * Why `value` is not a webhook URL, the first reason found, or its URI. `value` already obeys
 * the text rule (no control or invisible character) and its length.
 */
export function judgeWebhookUrl(value: string): { uri: string } | { problem: string } {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return { problem: ABSOLUTE };
  if (scheme !== 'http' && scheme !== 'https') return { problem: 'The URL must start with https:// or http://.' };
  const start = scheme.length + 3;
  if (value.slice(scheme.length, start) !== '://') return { problem: ABSOLUTE };
  const rest = value.slice(start).search(/[/?#]/);
  const authorityEnd = rest === -1 ? value.length : start + rest;
  const authority = value.slice(start, authorityEnd);
  if (authority.includes('@')) {
    return { problem: 'Leave the user name and password out of the URL: deliveries are signed.' };
  }
  if (value.includes('#')) return { problem: 'Leave the #fragment out of the URL: it is never sent.' };
  for (const character of value) {
    if (!IRI_CHARACTER.test(character)) return { problem: cannotHold(character) };
  }
  if (/%(?![0-9A-Fa-f]{2})/.test(value)) {
    return { problem: 'The URL holds a % that starts no escape such as %20: write a % itself as %25.' };
  }
  if (!IRI.test(value)) {
    if (/[[\]]/.test(value.slice(authorityEnd))) {
      return { problem: 'The URL holds “[” or “]” outside a host: write them as %5B and %5D.' };
    }
    return { problem: authorityProblem(authority) };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: authorityProblem(authority) };
  }
  const uri = `${url.protocol}//${url.host}${value.slice(authorityEnd).replace(/[\u0080-\u{10FFFF}]/gu, encodeURIComponent)}`;
  // A host the URL parser maps onto characters a URI cannot hold (`﹛` is read as `{`).
  if (!URI.test(uri)) return { problem: `The host “${url.hostname}” is not a domain name or an IP address.` };
  if (uri.length > MAX_LENGTH) {
    return {
      problem: `The URL can be at most ${MAX_LENGTH} characters long once written in ASCII (each non-ASCII character takes 6 to 12).`,
    };
  }
  return { uri };
}

export const WebhookUrlSchema = plainText('URL', { error: 'Give the endpoint URL.' })
  .min(1, 'Give the endpoint URL.')
  .max(MAX_LENGTH, `The URL can be at most ${MAX_LENGTH} characters long.`)
  // Runs only on text the checks above let through (the URL parser would drop a tab or a line
  // break and encode the rest: the text rule speaks first).
  .transform((value, ctx) => {
    const judged = judgeWebhookUrl(value);
    if ('uri' in judged) return judged.uri;
    ctx.addIssue({ code: 'custom', message: judged.problem });
    return z.NEVER;
  });

// For the OpenAPI document (json-schema.ts): an IRI, since the server takes one and stores the
// URI it maps to. What a pattern cannot say (an IPv4 address past 255, a name IDNA refuses, a
// URI past 2000 characters once encoded) is the server's to refuse.
constrainInput(WebhookUrlSchema, {
  format: 'iri',
  pattern: WEBHOOK_URL_PATTERN,
  examples: ['https://hooks.example.com/users'],
});
