import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import { registerMailMetrics } from '../mail/mail-metrics.js';
import { registerPasswordResetMetrics } from '../auth/password-reset-metrics.js';

/** What a pool of sequelize-pool reports (the library's getters). */
interface PoolCounts {
  size: number;
  available: number;
  using: number;
  waiting: number;
}

const isPool = (value: unknown): value is PoolCounts =>
  typeof value === 'object' && value !== null && typeof (value as PoolCounts).using === 'number';

/**
 * The connection pools by role: one `primary` pool, or `primary` and `replica` when Sequelize
 * runs with read replicas (its replication pool holds a `write` and a `read` pool). SQLite has none.
 */
function poolsOf(db: Database): Array<[role: string, pool: PoolCounts]> {
  const pool: unknown = (db.sequelize.connectionManager as unknown as { pool?: unknown }).pool;
  if (isPool(pool)) return [['primary', pool]];
  const replicated = pool as { read?: unknown; write?: unknown } | undefined;
  const out: Array<[string, PoolCounts]> = [];
  if (isPool(replicated?.write)) out.push(['primary', replicated.write]);
  if (isPool(replicated?.read)) out.push(['replica', replicated.read]);
  return out;
}

/** Latency buckets in seconds: a page answers in milliseconds, an export in minutes. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/**
 * The API's Prometheus metrics, one registry per app (tests run several apps in one process):
 * requests and their latency by method, route and status; the database pools; exports in
 * progress; mail queued, sent and failed, and the outbox's backlog; and prom-client's process
 * metrics (memory, CPU, event-loop lag, GC).
 */
export function createMetrics(db: Database, procedures: ReadonlySet<string>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to the last byte of a download), by method, route pattern and status.',
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });
  registerMailMetrics(registry, db);
  registerPasswordResetMetrics(registry);
  const exports = new Gauge({
    name: 'exports_in_progress',
    help: 'File downloads (exports) being streamed now.',
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections by pool (primary, replica) and state (using, available, waiting requests, size).',
    labelNames: ['pool', 'state'],
    registers: [registry],
    collect() {
      for (const [role, pool] of poolsOf(db)) {
        this.set({ pool: role, state: 'size' }, pool.size);
        this.set({ pool: role, state: 'using' }, pool.using);
        this.set({ pool: role, state: 'available' }, pool.available);
        this.set({ pool: role, state: 'waiting' }, pool.waiting);
      }
    },
  });

  /**
   * The route as a label: the pattern that matched (`/api/users/:id`), never the URL (unbounded
   * values); a tRPC call is named by its procedure when it is one the router has, else `batch`.
   */
  function routeOf(req: FastifyRequest): string {
    const pattern = req.routeOptions.url;
    if (pattern === undefined) return 'unmatched';
    const path = (req.params as { path?: unknown } | undefined)?.path;
    if (pattern.startsWith('/api/trpc/') && typeof path === 'string') {
      return procedures.has(path) ? `/api/trpc/${path}` : '/api/trpc/(batch)';
    }
    // `/api/users/:id(^\d+$)` → `/api/users/:id`: a parameter's pattern is no part of its name.
    return pattern.replace(/\(\^[^/]*\$\)/g, '');
  }

  return {
    registry,
    observe(req: FastifyRequest, status: number, seconds: number) {
      const labels = { method: req.method, route: routeOf(req), status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    /** Counts a download from its first byte until its stream ends or is destroyed. */
    download(body: Readable) {
      exports.inc();
      let done = false;
      const end = () => {
        if (done) return;
        done = true;
        exports.dec();
      };
      body.once('close', end);
      body.once('end', end);
      body.once('error', end);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
