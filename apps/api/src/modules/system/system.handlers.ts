import { AppError, unavailable } from '../../errors.js';
import type { Context } from '../../context.js';
import { APP_VERSION } from '../../version.js';

export interface HealthReport {
  status: 'ok';
  version: string;
  uptimeSeconds: number;
}

interface ReplicaStatus {
  /** host:port of a DATABASE_READ_URLS entry. */
  name: string;
  /** `down`: list reads that would go to it are answered by the primary meanwhile. */
  status: 'ok' | 'down';
}

export interface ReadyReport {
  status: 'ok';
  version: string;
  checks: { database: 'ok'; primary: 'ok'; replicas: ReplicaStatus[] };
}

/** The process is up: no dependency is touched, so a load balancer can tell a hung DB from a dead process. */
export async function health(): Promise<HealthReport> {
  return { status: 'ok', version: APP_VERSION, uptimeSeconds: Math.round(process.uptime()) };
}

/**
 * Ready for traffic: not shutting down and the primary answers; otherwise 503 so a load balancer
 * takes the instance out of rotation. Replicas are reported but do not decide: without them,
 * reads go to the primary.
 */
export async function ready({ ctx }: { ctx: Context }): Promise<ReadyReport> {
  if (ctx.lifecycle.draining) {
    throw new AppError('UNAVAILABLE', 'This instance is shutting down: requests go to the other instances.');
  }
  const [primary, replicas] = await Promise.all([ctx.db.ping(), ctx.db.checkReplicas()]);
  if (!primary) throw unavailable();
  return {
    status: 'ok',
    version: APP_VERSION,
    checks: {
      database: 'ok',
      primary: 'ok',
      replicas: replicas.map((r) => ({ name: r.name, status: r.ok ? 'ok' : 'down' })),
    },
  };
}
