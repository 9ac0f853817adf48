import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { Actor, AuthMethod } from './auth/actor.js';
import type { Database } from './db/database.js';
import type { Lifecycle } from './lifecycle.js';

export interface CookieJar {
  /** A cookie the request carried (single sign-on reads its own handle). */
  get(name: string): string | undefined;
  set(name: string, value: string, opts: { maxAgeSeconds: number }): void;
  clear(name: string): void;
}

/** A file sent as a request's body (an import), not yet read: the handler streams it where it goes. */
export interface UploadBody {
  stream: Readable;
  /** The body's media type, parameters and all (`multipart/form-data; boundary=…`). */
  contentType: string | null;
  /** The declared length, when the client sent one. */
  contentLength: number | null;
  /** The file's name when the client gave one. */
  filename: string | null;
  /** `Idempotency-Key`: a retried upload with the same key answers the first job. */
  idempotencyKey: string | null;
}

/** Which door the call came through: only the REST door can deliver a file download. */
type Transport = 'trpc' | 'rest';

/**
 * What a handler is called with, whichever door called it (tRPC, REST, CLI): it lives outside
 * trpc/ so that handlers import no transport.
 */
export interface Context {
  db: Database;
  config: AppConfig;
  lifecycle: Lifecycle;
  log: FastifyBaseLogger;
  requestId: string;
  ip: string;
  userAgent: string | null;
  actor: Actor | null;
  auth: AuthMethod | null;
  cookies: CookieJar;
  transport: Transport;
  /**
   * The browser vouches that the request came from the application's own pages (`Sec-Fetch-Site`
   * or `Origin`, see `isSameOriginFetch`). False for any client that sends neither header.
   */
  sameOrigin: boolean;
  /** The request's body as a file, for the routes that take one (REST only). */
  upload?: UploadBody;
}

/**
 * What a handler acting for someone needs, whichever door called it: the API's request context,
 * the command line's (`operatorContext`, every permission, recorded as `source: 'cli'`), or a
 * job's chunk (its submitter as the database sees them now).
 */
export type HandlerContext = Pick<Context, 'db' | 'config' | 'ip' | 'requestId' | 'auth'> & {
  actor: Actor;
  source?: 'cli';
};

/** A handler's one argument: the caller's context and the door's validated input. */
export interface HandlerCall<I, C = HandlerContext> {
  ctx: C;
  input: I;
}
