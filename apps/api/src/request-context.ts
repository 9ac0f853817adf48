import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from './auth/authenticate.js';
import { isSameOriginFetch } from './auth/same-origin-fetch.js';
import { SESSION_COOKIE } from './auth/sessions.js';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import type { Lifecycle } from './lifecycle.js';
import type { Context, CookieJar } from './context.js';

function cookieJar(req: FastifyRequest, reply: FastifyReply, config: AppConfig): CookieJar {
  const base = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.COOKIE_SECURE };
  return {
    get: (name) => req.cookies[name],
    set: (name, value, { maxAgeSeconds }) => void reply.setCookie(name, value, { ...base, maxAge: maxAgeSeconds }),
    clear: (name) => void reply.clearCookie(name, base),
  };
}

/** One context builder for both doors (tRPC and REST): same credentials, same actor. */
export function contextFactory(db: Database, config: AppConfig, lifecycle: Lifecycle) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<Context> => {
    const { actor, auth } = await authenticate(db, config, {
      authorization: req.headers.authorization,
      sessionCookie: req.cookies[SESSION_COOKIE],
      ip: req.ip,
    });
    const userAgent = req.headers['user-agent'];
    return {
      db,
      config,
      lifecycle,
      log: actor ? req.log.child({ actorId: actor.id }) : req.log,
      requestId: String(req.id),
      ip: req.ip,
      userAgent: typeof userAgent === 'string' ? userAgent : null,
      actor,
      auth,
      cookies: cookieJar(req, reply, config),
      // The REST bridge says 'rest'; any other caller is treated as tRPC, which cannot carry a file.
      transport: 'trpc',
      sameOrigin: isSameOriginFetch(req),
    };
  };
}
