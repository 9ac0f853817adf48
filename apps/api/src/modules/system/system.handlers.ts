import { unavailable } from '../../errors.js';
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
