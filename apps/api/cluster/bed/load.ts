import type { Cluster } from './cluster.js';
import { sleep } from './ports.js';

/** The kinds of request the steady load mixes, as an administrator's day does. */
export type RequestKind = 'list' | 'show' | 'setActive' | 'bulk' | 'export';
export const ALL_KINDS: RequestKind[] = ['list', 'show', 'setActive', 'bulk', 'export'];

export interface Outcome {
  kind: RequestKind;
  status: number;
  ms: number;
  /** Why the request counts as failed; absent when it did not fail. */
  failure?: string;
  /** A 503 whose body is the contract's UNAVAILABLE problem (expected while the database is away). */
  unavailable?: boolean;
  /** Who said 503: an instance (its database is away) or the balancer (no instance is ready). */
  unavailableFrom?: 'api' | 'balancer';
  at: number;
  /** The request id the answer carried (set by the balancer or the instance). */
  requestId?: string;
  /** A bulk's report, when it was answered 200. */
  bulk?: { affected: number[] };
}

export interface LoadOptions {
  baseUrl: string;
  cookie: string;
  /** Ids of users the load may read and switch (never an administrator). */
  ids: number[];
  /** Concurrent callers; each sends its next request when the previous one is answered. */
  workers: number;
  kinds: RequestKind[];
  /** Rows an export must contain (header excluded), to tell a cut-short file from a whole one. */
  exportRows: number;
  /** Pause between exports (the API allows 10 exports a minute per user). */
  exportEveryMs?: number;
  /** Users per bulk request (default 50). */
  bulkSize?: number;
  /** A request unanswered after this long is a hang. */
  timeoutMs?: number;
  /** 503 UNAVAILABLE counts as an expected answer (the database-gone scenario). */
  unavailableIsExpected?: boolean;
}

export interface LoadReport {
  outcomes: Outcome[];
  sent: number;
  failed: Outcome[];
  unavailable: number;
  byKind: Record<string, { sent: number; failed: number; p50: number; max: number }>;
}

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

interface Answer {
  status: number;
  body: string;
  requestId: string | undefined;
}

async function send(kind: RequestKind, n: number, opts: LoadOptions): Promise<Answer> {
  const headers = { cookie: opts.cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
  const id = pick(opts.ids, n * 7919);
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 30_000);
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${opts.baseUrl}${path}`, { ...init, headers, signal });
    return { status: res.status, body: await res.text(), requestId: res.headers.get('x-request-id') ?? undefined };
  };
  switch (kind) {
    case 'list':
      return call(`/api/users?page=${(n % 20) + 1}&perPage=25&sort=${pick(['name', 'created_at', 'email'], n)}`);
    case 'show':
      return call(`/api/users/${id}`);
    case 'setActive':
      return call(`/api/users/${id}/active`, { method: 'PATCH', body: JSON.stringify({ active: n % 2 === 0 }) });
    case 'bulk': {
      const size = opts.bulkSize ?? 50;
      const start = (n * size) % Math.max(1, opts.ids.length - size);
      const ids = opts.ids.slice(start, start + size);
      return call('/api/users/bulk', {
        method: 'POST',
        body: JSON.stringify({ operation: 'setActive', ids, active: n % 2 === 1 }),
      });
    }
    case 'export':
      return call('/api/users/export?format=csv');
  }
}

function judge(
  kind: RequestKind,
  status: number,
  body: string,
  opts: LoadOptions,
): Pick<Outcome, 'failure' | 'unavailable' | 'unavailableFrom'> {
  if (status === 503 && /"code":"UNAVAILABLE"/.test(body)) {
    const unavailableFrom = /No instance of the API is ready/.test(body) ? 'balancer' : 'api';
    return opts.unavailableIsExpected
      ? { unavailable: true, unavailableFrom }
      : { unavailable: true, unavailableFrom, failure: `503 UNAVAILABLE from the ${unavailableFrom}` };
  }
  if (status < 200 || status >= 300) return { failure: `${status} ${body.slice(0, 200)}` };
  if (kind === 'export') {
    const lines = body.split('\n').filter((l) => l.length > 0).length;
    if (lines !== opts.exportRows + 1) return { failure: `export cut short: ${lines - 1} of ${opts.exportRows} rows` };
  }
  return {};
}

/**
 * Why a request got no answer. undici's "fetch failed" says nothing by itself: its cause names
 * the socket's fate (refused, reset, closed by the other side, a timeout) and its code.
 */
function failureOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause : null;
  const code = cause && 'code' in cause ? ` [${String(cause.code)}]` : '';
  return `${err.name}: ${err.message}${cause ? ` (${cause.message}${code})` : ''}`;
}

/** One request of `kind` (the `n`th of the load): its status, time and verdict, or why it got no answer. */
async function attempt(kind: RequestKind, n: number, opts: LoadOptions): Promise<Outcome> {
  const started = performance.now();
  try {
    const { status, body, requestId } = await send(kind, n, opts);
    const bulk =
      kind === 'bulk' && status === 200
        ? { affected: (JSON.parse(body) as { affected: number[] }).affected }
        : undefined;
    return {
      kind,
      status,
      ms: performance.now() - started,
      at: Date.now(),
      ...(requestId ? { requestId } : {}),
      ...(bulk ? { bulk } : {}),
      ...judge(kind, status, body, opts),
    };
  } catch (err) {
    return { kind, status: 0, ms: performance.now() - started, at: Date.now(), failure: failureOf(err) };
  }
}

/** How long a caller waits after a 503 UNAVAILABLE before its next request. */
const UNAVAILABLE_PAUSE_MS = 100;

/**
 * A steady mixed load through `baseUrl` until `stop()`: every request's status and time, and
 * which failed — a network error, a timeout, a status outside 2xx (503 UNAVAILABLE only when
 * expected), or an export that did not deliver every row.
 */
export function startLoad(opts: LoadOptions) {
  const outcomes: Outcome[] = [];
  let running = true;
  let counter = 0;
  const plain = opts.kinds.filter((k) => k !== 'export');

  /** Sends one request of `kind` and records its outcome; returns that outcome. */
  const record = async (kind: RequestKind): Promise<Outcome> => {
    const outcome = await attempt(kind, counter++, opts);
    outcomes.push(outcome);
    return outcome;
  };

  const workers = Array.from({ length: opts.workers }, async (_, w) => {
    let i = w;
    while (running) {
      const outcome = await record(pick(plain, i++));
      // A 503 UNAVAILABLE comes back in a millisecond: asking again at once only spins the
      // machine's cores (thousands of requests a second while the primary is away). The
      // contract says retry after a pause; a tenth of a second still sees the recovery at once.
      if (outcome.unavailable) await sleep(UNAVAILABLE_PAUSE_MS);
    }
  });
  const exporter = opts.kinds.includes('export')
    ? (async () => {
        while (running) {
          await record('export');
          const until = Date.now() + (opts.exportEveryMs ?? 7_000);
          while (running && Date.now() < until) await sleep(100);
        }
      })()
    : Promise.resolve();

  return {
    outcomes,
    async stop(): Promise<LoadReport> {
      running = false;
      await Promise.all([...workers, exporter]);
      return summarise(outcomes);
    },
  };
}

export function summarise(outcomes: Outcome[]): LoadReport {
  const byKind: LoadReport['byKind'] = {};
  for (const kind of new Set(outcomes.map((o) => o.kind))) {
    const mine = outcomes.filter((o) => o.kind === kind);
    const ms = mine.map((o) => o.ms).sort((a, b) => a - b);
    byKind[kind] = {
      sent: mine.length,
      failed: mine.filter((o) => o.failure).length,
      p50: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
      max: Math.round(ms[ms.length - 1] ?? 0),
    };
  }
  return {
    outcomes,
    sent: outcomes.length,
    failed: outcomes.filter((o) => o.failure),
    unavailable: outcomes.filter((o) => o.unavailable).length,
    byKind,
  };
}

/** One line for the test's output and the closing note. */
export function describeLoad(name: string, r: LoadReport): string {
  const kinds = Object.entries(r.byKind)
    .map(([k, v]) => `${k} ${v.sent} (p50 ${v.p50} ms, max ${v.max} ms${v.failed ? `, ${v.failed} failed` : ''})`)
    .join('; ');
  const api = r.outcomes.filter((o) => o.unavailableFrom === 'api').length;
  const unavailable = r.unavailable ? ` (${api} from an instance, ${r.unavailable - api} from the balancer)` : '';
  return `${name}: ${r.sent} requests, ${r.failed.length} failed, ${r.unavailable} × 503${unavailable} — ${kinds}`;
}

/** The bed's usual load: through the balancer, as the administrator, 4 callers, every kind. */
export function loadOn(
  c: Pick<Cluster, 'lb' | 'demoIds' | 'listedUsers'>,
  cookie: string,
  overrides: Partial<LoadOptions> = {},
) {
  return startLoad({
    baseUrl: c.lb.baseUrl,
    cookie,
    ids: c.demoIds,
    exportRows: c.listedUsers,
    workers: 4,
    kinds: ALL_KINDS,
    ...overrides,
  });
}

/**
 * The failed requests of a load, one line each (kind, status, why, how long, when): what an
 * assertion shows when a request failed, where the objects themselves print as `…(3)`.
 */
export function failuresOf(report: Pick<LoadReport, 'failed'>): string[] {
  return report.failed.map(
    (o) => `${o.kind} ${o.status} after ${Math.round(o.ms)} ms at ${new Date(o.at).toISOString()}: ${o.failure}`,
  );
}
