import http from 'node:http';
import https from 'node:https';
import { Webhook as Signer } from 'standardwebhooks';
import { APP_VERSION } from '../version.js';
import type { AgentPool } from './agent-pool.js';
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
  /** The dispatcher's kept-alive connections; without them the attempt opens its own. */
  agents?: AgentPool;
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
 * A kept-alive socket the endpoint closed while it sat in the pool, found out only as the
 * request is written: reset (or hung up, which Node also reports as ECONNRESET) before any byte
 * of an answer. The endpoint did not answer this request; a fresh connection usually will.
 */
const staleSocket = (req: http.ClientRequest, err: unknown, responded: boolean) => {
  const code = (err as NodeJS.ErrnoException).code;
  return req.reusedSocket && !responded && (code === 'ECONNRESET' || code === 'EPIPE');
};

/**
 * POSTs one signed event and reports how it went. Redirects are not followed (a 3xx is a failed
 * attempt naming its Location); the whole attempt has one deadline; at most 64 KB of the answer
 * is read. Never throws, never hangs past the deadline.
 *
 * With `options.agents` the connection is a kept-alive one of the endpoint's origin
 * (agent-pool.ts); a reused socket found closed is replaced once, by a fresh connection, within
 * the same deadline. Without it, the attempt opens a connection of its own and closes it.
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
    let current: http.ClientRequest | null = null;
    const finish = (result: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...result, latencyMs: elapsed(), error: result.error === null ? null : clip(result.error) });
    };
    const fail = (error: string, statusCode: number | null = null, excerpt: string | null = null) =>
      finish({ ok: false, statusCode, excerpt, error });
    const deadline = setTimeout(() => {
      fail(`timed out after ${options.timeoutMs / 1000} s`);
      current?.destroy();
    }, options.timeoutMs);
    const headers = signedHeaders(request);

    /** One request on `agent`'s connection, or on a connection of its own when `agent` is false. */
    const exchange = (agent: http.Agent | false) => {
      const client = url.protocol === 'https:' ? https : http;
      let req: http.ClientRequest;
      try {
        // The guard is the connection's lookup either way: a pool's agent carries the same one.
        req = client.request(url, { method: 'POST', headers, agent, lookup: guardedLookup(options.allowPrivate) });
      } catch (err) {
        fail(describeError(err, url));
        return;
      }
      current = req;
      let responded = false;
      req.on('error', (err) => {
        if (settled) return;
        if (agent && staleSocket(req, err, responded)) exchange(false);
        else fail(describeError(err, url));
      });
      req.on('response', (res) => {
        responded = true;
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
        };
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          if (size < EXCERPT_LIMIT) chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_READ_LIMIT) {
            conclude();
            // Stop reading: what is left of a long answer is dropped with the connection.
            res.destroy();
          }
        });
        // Read to its end, the connection goes back to the pool for the next delivery.
        res.on('end', conclude);
        // An answer cut off midway still carries its status: that is what the endpoint said.
        res.on('close', conclude);
        res.on('error', () => undefined);
      });
      req.end(request.body);
    };

    exchange(options.agents?.agentFor(url, options.allowPrivate) ?? false);
  });
}
