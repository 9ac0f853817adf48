import type { AnyRouter } from '@trpc/server';
import { unavailable } from '../../errors.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../../rest/openapi.js';
import type { Context } from '../../trpc/context.js';
import { APP_VERSION } from '../../version.js';

export interface HealthReport {
  status: 'ok';
  version: string;
  uptimeSeconds: number;
}

export interface ReadyReport {
  status: 'ok';
  version: string;
  checks: { database: 'ok' };
}

/** The process is up: no dependency is touched, so a load balancer can tell a hung DB from a dead process. */
export async function health(): Promise<HealthReport> {
  return { status: 'ok', version: APP_VERSION, uptimeSeconds: Math.round(process.uptime()) };
}

/** The database answers a trivial query; otherwise 503 so the instance is taken out of rotation. */
export async function ready({ ctx }: { ctx: Context }): Promise<ReadyReport> {
  const ok = await ctx.db.ping();
  if (!ok) throw unavailable();
  return { status: 'ok', version: APP_VERSION, checks: { database: 'ok' } };
}

// The document describes the app router, which contains this very handler: importing the router
// here would be circular. app-router.ts hands it over once built; the document is generated on
// first request and kept, since routes cannot change while the process runs.
let documented: AnyRouter | undefined;
let openApiCache: OpenApiDocument | undefined;

/** Called once by app-router.ts with the router `GET /api/openapi.json` describes. */
export function documentRouter(router: AnyRouter): void {
  documented = router;
  openApiCache = undefined;
}

export async function openApi(): Promise<OpenApiDocument> {
  if (!documented) throw new Error('No router to document: app-router.ts must call documentRouter().');
  openApiCache ??= buildOpenApiDocument(documented, { version: APP_VERSION });
  return openApiCache;
}
