import type { FastifyBaseLogger } from 'fastify';
import pino, { type Logger } from 'pino';

const REDACTED = '[redacted]';
/** A parameter or JSON key that names a credential. */
const SENSITIVE_NAME = /pass(word)?|secret|token|authorization|api[_-]?key/i;

/**
 * What an identity provider's redirect carries in the URL (single sign-on's callback): the
 * authorization code and the state are one-time credentials, kept out of the logs like a token.
 */
const OAUTH_CREDENTIAL_NAME = /^(code|state|session_state)$/;
const OAUTH_CREDENTIAL = /(^|&)(code|state|session_state)=/;

function decodedQuery(query: string): string {
  try {
    return decodeURIComponent(query.replace(/\+/g, ' '));
  } catch {
    return query;
  }
}

/** Deeper than any input the API takes: below it, everything is redacted rather than walked. */
const MAX_DEPTH = 32;

function redactJsonValues(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactJsonValues(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SENSITIVE_NAME.test(key) ? REDACTED : redactJsonValues(item, depth + 1),
    ]),
  );
}

/** A parameter's value for the log: a JSON value (tRPC's `input`) with its credentials replaced. */
function loggableValue(value: string): string {
  if (!SENSITIVE_NAME.test(value)) return value;
  try {
    return JSON.stringify(redactJsonValues(JSON.parse(value)));
  } catch {
    return REDACTED;
  }
}

/**
 * A request URL as logged: the values of parameters named like a credential, and credentials
 * inside a JSON parameter (a tRPC query's `input`, or a mutation a client sent with GET), are
 * replaced. Body fields are redacted by name below; a URL is logged whole, so a password a
 * client put in one (`/api/trpc/auth.login?input={"password":…}`) would otherwise stay in the logs.
 */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = url.slice(at + 1);
  if (!SENSITIVE_NAME.test(decodedQuery(query)) && !OAUTH_CREDENTIAL.test(query)) return url;
  const params = new URLSearchParams(query);
  const kept = [...params].map(([key, value]): [string, string] => [
    key,
    SENSITIVE_NAME.test(key) || OAUTH_CREDENTIAL_NAME.test(key) ? REDACTED : loggableValue(value),
  ]);
  return `${url.slice(0, at)}?${new URLSearchParams(kept).toString()}`;
}

/** Fastify's request serializer (method, URL, host, client), with the URL made loggable. */
function serializeRequest(req: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: loggableUrl(req.url),
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * Structured JSON logs. Credentials never reach a log line: cookies, authorization headers
 * and anything named like a password are redacted wherever they appear, in URLs too.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'user-admin' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { req: serializeRequest },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.password_confirmation',
        '*.password_hash',
        '*.token',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** 5xx are logged with their stack (server side only); 4xx are the caller's business. */
export function logError(log: FastifyBaseLogger, error: unknown, status: number) {
  // 503: the database is away, which its own log says; one line per refused request is enough.
  if (status === 503)
    log.warn({ err: error instanceof Error ? error.message : String(error) }, 'request refused: database unavailable');
  else if (status >= 500) log.error({ err: error }, 'request failed');
  else log.debug({ err: error instanceof Error ? error.message : String(error), status }, 'request refused');
}
