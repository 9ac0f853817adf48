import http from 'node:http';
import https from 'node:https';
import { Webhook as Signer } from 'standardwebhooks';
import { APP_VERSION } from '../version.js';
import { guardedLookup, literalAddress, nonPublicRange, PrivateAddressRefused } from './ssrf.js';

/** What one HTTP attempt sends. */
export interface DeliveryRequest {
  url: string;
  /** `whsec_…`, the endpoint's signing secret. */
  secret: string;
  /** The Standard Webhooks message id: the same on every attempt. */
  eventId: string;
  /** The JSON body, exactly as signed. */
  body: string;
}

export interface DeliveryOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

/** How an attempt ended. Every failure is one of these, never an exception. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** The first KB of the response body as text, or null when none was read. */
  excerpt: string | null;
  error: string | null;
}

/** More of an answer is never read: an endpoint cannot make the dispatcher hold megabytes. */
export const RESPONSE_READ_LIMIT = 64 * 1024;
/** The part of the answer kept in the delivery log. */
export const EXCERPT_LIMIT = 1024;
const ERROR_LIMIT = 500;

export const USER_AGENT = `UserAdmin-Webhooks/${APP_VERSION}`;

/** The Standard Webhooks headers of one attempt: a fresh timestamp, its signature over id.timestamp.body. */
function signedHeaders(request: DeliveryRequest, now = new Date()): Record<string, string> {
  const signature = new Signer(request.secret).sign(request.eventId, now, request.body);
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': request.eventId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

const clip = (text: string, limit = ERROR_LIMIT) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);

/** A connection error as a sentence an operator can act on. */
function describeError(err: unknown, url: URL): string {
  if (err instanceof PrivateAddressRefused) return err.message;
  const e = err as NodeJS.ErrnoException & { hostname?: string };
  const where = url.host;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found: ${url.hostname}`;
    case 'ECONNRESET':
      return `connection reset by ${where}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} cannot be reached (${e.code})`;
    default:
      return `${e.code ? `${e.code}: ` : ''}${e.message || String(err)}`;
  }
}

/**
 * POSTs one signed event and reports how it went. Redirects are not followed (a 3xx is a failed
 * attempt naming its Location); the whole attempt has one deadline; at most 64 KB of the answer
 * is read. Never throws, never hangs past the deadline.
 */
export function deliver(request: DeliveryRequest, options: DeliveryOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.resolve({ ok: false, statusCode: null, latencyMs: 0, excerpt: null, error: 'invalid URL' });
  }
  // An IP literal is connected to without a lookup, so the guard in `guardedLookup` never sees it.
  const literal = literalAddress(url.hostname);
  const literalRange = literal && !options.allowPrivate ? nonPublicRange(literal) : null;
  if (literal && literalRange) {
    const error = new PrivateAddressRefused(literal, literal, literalRange).message;
    return Promise.resolve({ ok: false, statusCode: null, latencyMs: 0, excerpt: null, error });
  }

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const finish = (result: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...result, latencyMs: elapsed(), error: result.error === null ? null : clip(result.error) });
    };
    const fail = (error: string, statusCode: number | null = null, excerpt: string | null = null) =>
      finish({ ok: false, statusCode, excerpt, error });

    const client = url.protocol === 'https:' ? https : http;
    let req: http.ClientRequest;
    try {
      req = client.request(url, {
        method: 'POST',
        headers: signedHeaders(request),
        // A fresh connection per attempt: a kept-alive one could be closed by the endpoint just
        // as it is reused, failing an attempt that would have succeeded.
        agent: false,
        lookup: guardedLookup(options.allowPrivate),
      });
    } catch (err) {
      fail(describeError(err, url));
      return;
    }
    deadline = setTimeout(() => {
      fail(`timed out after ${options.timeoutMs / 1000} s`);
      req.destroy();
    }, options.timeoutMs);

    req.on('error', (err) => fail(describeError(err, url)));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const conclude = () => {
        const excerpt = size > 0 ? Buffer.concat(chunks).subarray(0, EXCERPT_LIMIT).toString('utf8') : null;
        if (status >= 200 && status < 300) finish({ ok: true, statusCode: status, excerpt, error: null });
        else if (status >= 300 && status < 400) {
          const location = res.headers.location;
          fail(
            `redirect not followed: ${status}${location ? ` to ${location}` : ' without a Location'}`,
            status,
            excerpt,
          );
        } else fail(`HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`, status, excerpt);
        // Stop reading: what is left of a long answer is dropped with the connection.
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (size < EXCERPT_LIMIT) chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_READ_LIMIT) conclude();
      });
      res.on('end', conclude);
      // An answer cut off midway still carries its status: that is what the endpoint said.
      res.on('close', conclude);
      res.on('error', () => undefined);
    });
    req.end(request.body);
  });
}
