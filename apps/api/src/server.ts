import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import { registerRestBridge } from './rest/bridge.js';
import { logError, registerErrorHandler } from './rest/error-handler.js';
import { problem, sendProblem } from './rest/problem.js';
import { type AppRouter, appRouter } from './trpc/app-router.js';
import { describeError, trpcStatusFor } from './trpc/error-formatter.js';
import { contextFactory } from './request-context.js';
import { assertEveryProcedureGuarded } from './trpc/guard-check.js';
import { registerSameOriginCheck } from './auth/same-origin.js';

export interface AppDeps {
  config: AppConfig;
  db: Database;
  logger: Logger;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function buildApp({ config, db, logger }: AppDeps): Promise<FastifyInstance> {
  assertEveryProcedureGuarded(appRouter);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // 10 000 `ids[]` in an export URL are ~110 KB; Node's default header limit is 16 KB.
    http: { maxHeaderSize: 256 * 1024 },
    // A caller-supplied id is kept when sane so logs join across services; otherwise a fresh one.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 200 },
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

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

  const createContext = contextFactory(db, config);

  // API answers are per-user and must never be stored by a shared cache.
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  registerSameOriginCheck(app);
  registerErrorHandler(app);

  await app.register(fastifyTRPCPlugin, {
    prefix: '/api/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }) => createContext(req, res),
      responseMeta: ({ errors }) => {
        const status = trpcStatusFor(errors);
        return status ? { status } : {};
      },
      onError: ({ error, ctx }) => {
        const { code } = describeError(error);
        const status = code === 'INTERNAL' ? 500 : 400;
        logError(ctx?.log ?? logger, error, status);
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  registerRestBridge(app, appRouter, createContext);

  const indexHtml = path.join(config.WEB_DIST_DIR, 'index.html');
  const spaBuilt = fs.existsSync(indexHtml);
  if (spaBuilt) {
    await app.register(fastifyStatic, {
      root: config.WEB_DIST_DIR,
      prefix: '/',
      wildcard: true,
      index: ['index.html'],
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
    if (url === '/api' || url.startsWith('/api/')) {
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
