import http from 'node:http';
import https from 'node:https';
import { guardedLookup } from '../webhooks/ssrf.js';

/** A provider's answer larger than this (a discovery document, a key set, tokens) is refused. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The `fetch` the OpenID client calls a provider with: Node's http(s) with the webhooks' SSRF
 * guard in the connection's own DNS lookup, so an issuer whose name resolves (now or later) to a
 * loopback, private or metadata address is never connected to, unless SSO_ALLOW_INSECURE_ISSUER.
 * No redirect is followed (the client library asks for none); the body is capped.
 */
export function guardedFetch(allowPrivate: boolean, timeoutMs: number) {
  const lookup = guardedLookup(allowPrivate);
  return (url: string, options: { method: string; headers: Record<string, string>; body?: unknown }) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const transport = target.protocol === 'https:' ? https : http;
      const body = options.body === undefined || options.body === null ? undefined : String(options.body);
      const req = transport.request(
        target,
        { method: options.method, headers: options.headers, lookup, timeout: timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_BODY_BYTES) req.destroy(new Error(`the answer from ${target.host} is too large`));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
                headers.append(name, v);
            }
            const status = res.statusCode ?? 502;
            const hasBody = status !== 204 && status !== 304;
            resolve(new Response(hasBody ? Buffer.concat(chunks) : null, { status, headers }));
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${target.host} did not answer in time`)));
      req.on('error', reject);
      req.end(body);
    });
}
