import { describe, expect, it } from 'vitest';
import { inputJsonSchema } from '../json-schema';
import { WEBHOOK_URL_PATTERN, WebhookUrlSchema } from './webhook-url';
import { WebhookInputSchema } from './webhooks';

const judged = (url: string) => {
  const result = WebhookUrlSchema.safeParse(url);
  return result.success ? { stored: result.data } : { refused: result.error.issues[0]?.message ?? '' };
};
const documentAccepts = (url: string) => new RegExp(WEBHOOK_URL_PATTERN, 'u').test(url);

/** Sent as a client would, each with what the server stores. */
const STORED: Array<[string, string]> = [
  ['https://hooks.example.com/users', 'https://hooks.example.com/users'],
  ['http://bücher.example/', 'http://xn--bcher-kva.example/'],
  ['HTTPS://Bücher.Example:8443/a?b=c', 'https://xn--bcher-kva.example:8443/a?b=c'],
  ['https://hooks.example.com/bücher?ü=😀', 'https://hooks.example.com/b%C3%BCcher?%C3%BC=%F0%9F%98%80'],
  ['https://hooks.example.com?only=query', 'https://hooks.example.com?only=query'],
  ['https://hooks.example.com:443/x', 'https://hooks.example.com/x'],
  ['http://[2606:4700::1111]:8080/x', 'http://[2606:4700::1111]:8080/x'],
  ["https://hooks.example.com/a;b=c/(d)*!$&'+,=:@~_.-%20", "https://hooks.example.com/a;b=c/(d)*!$&'+,=:@~_.-%20"],
];

/** The fuzzer's findings and their kin: refused, each with what to change. */
const REFUSED: Array<[string, RegExp]> = [
  ['http://example.com/a b', /cannot hold a space.*%20/],
  ['http://ex{am}ple.com/', /cannot hold “\{” \(U\+007B\)/],
  ['HtTp://{¬Ⱦç', /cannot hold “\{”/],
  ['https://hooks.example.com/a\u00a0b', /space character \(U\+00A0\).*%C2%A0/],
  ['https://hooks.example.com/a|b', /“\|”.*%7C/],
  ['https://hooks.example.com/a"b', /“"”.*%22/],
  ['https://hooks.example.com/a\\b', /“\\”.*%5C/],
  ['https://hooks.example.com/a^b`c', /“\^”/],
  ['https://hooks.example.com/<x>', /“<”/],
  ['https://hooks.example.com/%zz', /%25/],
  ['https://hooks.example.com/[x]', /%5B/],
  ['https://hooks.example.com:99999/', /port/],
  ['https://hooks.example.com:8o/', /port/],
  ['https://ex%41mple.com/', /host “ex%41mple\.com”/],
  ['https://[zz]/', /host “\[zz\]”/],
  ['https://user:pw@hooks.example.com/', /user name and password/],
  ['https://hooks.example.com/#part', /#fragment/],
  ['ftp://hooks.example.com/x', /https:\/\/ or http:\/\//],
  ['hooks.example.com', /absolute URL/],
  ['http:hooks.example.com', /absolute URL/],
  ['http:///x', /absolute URL/],
];

/** What a pattern cannot say: the server refuses these though the document's pattern matches. */
const ONLY_THE_SERVER_REFUSES: Array<[string, RegExp]> = [
  ['http://256.1.1.1/', /host “256\.1\.1\.1”/],
  ['http://ex﹛am﹜ple.com/', /host “ex\{am\}ple\.com”/],
  [`https://hooks.example.com/${'ü'.repeat(400)}`, /at most 2000 characters long once written in ASCII/],
];

describe('a webhook URL', () => {
  it.each(STORED)('%s is stored as %s, which reads back unchanged', (url, stored) => {
    expect(judged(url)).toEqual({ stored });
    expect(judged(stored)).toEqual({ stored });
    // What is stored is ASCII: an RFC 3986 URI.
    expect(stored).toMatch(/^[\x21-\x7e]+$/);
  });

  it.each(REFUSED)('%s is refused (%s)', (url, message) => {
    expect(judged(url).refused).toMatch(message);
  });

  it('holds no space of any script, by the server and the document alike', () => {
    const spaces = Array.from({ length: 0x110000 }, (_, cp) => cp)
      .filter((cp) => /\p{Zs}/u.test(String.fromCodePoint(cp)))
      .map((cp) => `https://hooks.example.com/a${String.fromCodePoint(cp)}b`);
    expect(spaces.length).toBeGreaterThan(15);
    for (const url of spaces) {
      expect(judged(url).refused, url).toMatch(/space/);
      expect(documentAccepts(url), url).toBe(false);
    }
  });

  it.each(ONLY_THE_SERVER_REFUSES)('%s is refused by the server alone (%s)', (url, message) => {
    expect(judged(url).refused).toMatch(message);
    expect(documentAccepts(url)).toBe(true);
  });
});

describe("the OpenAPI document's rule", () => {
  it('is the one the schema enforces: the pattern accepts every URL the schema does and none it refuses', () => {
    for (const [url] of STORED) expect(documentAccepts(url), url).toBe(true);
    for (const [url] of REFUSED) expect(documentAccepts(url), url).toBe(false);
  });

  it('says an IRI with that pattern, beside the text rule and the length', () => {
    const url = inputJsonSchema(WebhookInputSchema).properties as Record<string, Record<string, unknown>>;
    expect(url.url).toMatchObject({ type: 'string', format: 'iri', maxLength: 2000 });
    expect(url.url?.allOf).toContainEqual({ pattern: WEBHOOK_URL_PATTERN });
  });
});
