import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import { registerRestBridge } from './rest/bridge.js';
import { registerScimDoor } from './scim/scim-door.js';
import { registerErrorHandler } from './rest/error-handler.js';
import { problem, sendProblem } from './rest/problem.js';
import { appRouter } from './app/app-router.js';
import { registerTrpcDoor } from './trpc/http-door.js';
import { contextFactory } from './request-context.js';
import { assertEveryProcedureGuarded } from './trpc/guard-check.js';
import { registerSameOriginCheck } from './auth/same-origin.js';
import { isApiPath, refuseUnroutableUrl, registerNoStore } from './api-scope.js';
import { fastifyTrustProxy } from './trust-proxy.js';
import { isProbe, type RequestActivity } from './request-activity.js';
import { createMetrics } from './metrics/metrics.js';
import { registerMetrics } from './metrics/metrics-route.js';
import { createLifecycle, type Lifecycle } from './lifecycle.js';
import { resetRequestsSettled } from './modules/password-reset/forgot.request.js';
import { KEEP_ALIVE_SECONDS } from './keep-alive.js';

export interface AppDeps {
  config: AppConfig;
  db: Database;
  logger: Logger;
  /** Drained by the process on SIGTERM; a fresh one (never draining) when not given. */
  lifecycle?: Lifecycle;
  /** Told of every request but the probes: the job runner gives way while someone is served. */
  activity?: RequestActivity;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function buildApp({
  config,
  db,
  logger,
  lifecycle = createLifecycle(),
  activity,
}: AppDeps): Promise<FastifyInstance> {
  assertEveryProcedureGuarded(appRouter);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    keepAliveTimeout: KEEP_ALIVE_SECONDS * 1000,
    // 10 000 `ids[]` in an export URL are ~110 KB; Node's default header limit is 16 KB.
    http: { maxHeaderSize: 256 * 1024 },
    // A caller-supplied id is kept when sane so logs join across services; otherwise a fresh one.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // The tRPC door's one parameter is a batch of procedure names (`users.list,auth.me,…`): the
    // SPA batches what a page asks for at once, so 200 characters could refuse a real page.
    routerOptions: { maxParamLength: 5000 },
    frameworkErrors: refuseUnroutableUrl,
    // While closing, a request that still arrives on an open kept-alive connection is served,
    // not refused with Fastify's own 503 body: the listener is closed, so no new connection
    // comes, and main.ts closes each connection once it falls idle.
    return503OnClosing: false,
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (activity && !isProbe(req.url)) {
      activity.began();
      // 'close' comes once, whether the answer was sent or its client went away first.
      reply.raw.once('close', activity.ended);
    }
  });
  // "Forgot password" answers before its work is done (its timing must not tell whether an account
  // exists): closing lets the work answered so far finish before the database goes.
  app.addHook('onClose', async () => resetRequestsSettled());

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: config.COOKIE_SECURE ? [] : null,
      },
    },
    strictTransportSecurity: config.COOKIE_SECURE,
  });
  await app.register(fastifyCookie);

  const createContext = contextFactory(db, config, lifecycle);

  registerNoStore(app);
  registerSameOriginCheck(app);
  registerErrorHandler(app);
  const metrics = createMetrics(db, new Set(Object.keys(appRouter._def.procedures)));
  registerMetrics(app, metrics, config.METRICS_TOKEN);

  await registerTrpcDoor(app, { router: appRouter, createContext });

  registerRestBridge(app, appRouter, createContext, { onDownload: metrics.download });
  await registerScimDoor(app, db, config);

  const indexHtml = path.join(config.WEB_DIST_DIR, 'index.html');
  const spaBuilt = fs.existsSync(indexHtml);
  if (spaBuilt) {
    await app.register(fastifyStatic, {
      root: config.WEB_DIST_DIR,
      prefix: '/',
      wildcard: true,
      index: ['index.html'],
      // The build writes .br and .gz beside each text asset (apps/web/scripts/compress.mjs): sent
      // as such to a client that accepts them, with `Vary: Accept-Encoding`.
      preCompressed: true,
      // Hashed assets never change; index.html must always be revalidated to pick up new builds.
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    // Read as the router reads it, so `/%61pi/nothing` is an API 404 and not the SPA.
    if (isApiPath(req.url)) {
      return sendProblem(
        reply,
        problem('NOT_FOUND', `No API route matches ${req.method} ${url}.`, undefined, String(req.id)),
      );
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendProblem(
        reply,
        problem('NOT_FOUND', `No route matches ${req.method} ${url}.`, undefined, String(req.id)),
      );
    }
    if (!spaBuilt) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app has not been built yet. Run `npm run build` (npm start does it for you).');
    }
    // Client-side routes (/users/12/edit) all load the SPA, which routes itself.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  return app;
}
