import autocannon from 'autocannon';
import type { BenchContext, HttpRequestSpec, HttpScenario } from './scenarios.js';
import { percentile, withTimeout } from './stats.js';

export interface ProbeResult {
  status: number;
  bodySnippet: string;
  ms: number;
}

export const authHeaders = (ctx: BenchContext, json = false): Record<string, string> => ({
  authorization: `Bearer ${ctx.token}`,
  accept: 'application/json',
  ...(json ? { 'content-type': 'application/json' } : {}),
});

/** One request with fetch, fully read; used to probe a route and to warm it up. */
export async function probe(ctx: BenchContext, spec: HttpRequestSpec, timeoutMs = 120_000): Promise<ProbeResult> {
  const started = performance.now();
  const res = await fetch(ctx.baseUrl + spec.path, {
    method: spec.method,
    headers: authHeaders(ctx, spec.body !== undefined),
    ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  return { status: res.status, bodySnippet: text.slice(0, 300), ms: performance.now() - started };
}

export interface LoadResult {
  requests: number;
  ok: number;
  /** Status code → count, non-2xx included. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  reqPerSec: number;
  seconds: number;
  /** Every 2xx response time, ms. */
  samples: number[];
}

/** A load's result from its 2xx response times and its status counts. */
export function toLoadResult(run: {
  samples: number[];
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  seconds: number;
}): LoadResult {
  const { samples, seconds } = run;
  return {
    ...run,
    requests: Object.values(run.statuses).reduce((a, b) => a + b, 0),
    ok: samples.length,
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p99: percentile(samples, 99),
    max: percentile(samples, 100),
    reqPerSec: samples.length / Math.max(seconds, 0.001),
  };
}

/** One result from several runs of the same scenario (their samples pooled). */
export function mergeLoads(parts: readonly LoadResult[]): LoadResult {
  const statuses: Record<string, number> = {};
  for (const p of parts) for (const [k, n] of Object.entries(p.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  return toLoadResult({
    samples: parts.flatMap((p) => p.samples),
    statuses,
    errors: parts.reduce((a, p) => a + p.errors, 0),
    timeouts: parts.reduce((a, p) => a + p.timeouts, 0),
    seconds: parts.reduce((a, p) => a + p.seconds, 0),
  });
}

const MAX_SAMPLES = 2_000_000;

/**
 * A scenario's requests in order: the same request, or for a varying (write) scenario the i-th
 * one. One sequence runs through warm-up and load, so each write request really changes rows.
 */
export function requestSequence(ctx: BenchContext, scenario: HttpScenario): () => HttpRequestSpec {
  let i = 0;
  const fixed = scenario.request(ctx);
  return () => (scenario.vary ? scenario.vary(ctx, i++) : fixed);
}

/**
 * Drives one scenario with autocannon for `seconds` on `connections` connections and computes
 * the latency percentiles from every 2xx response time (ms, float), not from autocannon's
 * integer histogram.
 */
export async function runLoad(
  ctx: BenchContext,
  scenario: HttpScenario,
  opts: { seconds: number; connections: number; rate?: number; next?: () => HttpRequestSpec },
): Promise<LoadResult> {
  const base = scenario.request(ctx);
  const headers = authHeaders(ctx, base.body !== undefined);
  const next = opts.next ?? requestSequence(ctx, scenario);
  const requests: autocannon.Request[] | undefined = scenario.vary
    ? [
        {
          setupRequest: (req) => {
            const spec = next();
            return {
              ...req,
              method: spec.method,
              path: spec.path,
              headers,
              ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
            };
          },
        },
      ]
    : undefined;

  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let settle: { resolve: (r: autocannon.Result) => void; reject: (e: unknown) => void } | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const instance = autocannon(
    {
      url: ctx.baseUrl + base.path,
      connections: opts.connections,
      duration: opts.seconds,
      // A request slower than this counts as a timeout (the scenario is then far off its target).
      timeout: 60,
      ...(opts.rate ? { overallRate: opts.rate } : {}),
      method: base.method,
      headers,
      ...(base.body !== undefined ? { body: JSON.stringify(base.body) } : {}),
      ...(requests ? { requests } : {}),
    },
    (err, result) => (err ? settle?.reject(err) : settle?.resolve(result)),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    if (statusCode >= 200 && statusCode < 300 && latencies.length < MAX_SAMPLES) latencies.push(responseTime);
  });
  let result: autocannon.Result;
  try {
    // Bounded: the run's duration, plus the slowest in-flight request, plus slack.
    result = await withTimeout(done, (opts.seconds + 90) * 1000, `load of ${scenario.name}`);
  } catch (err) {
    instance.stop();
    throw err;
  }
  return toLoadResult({
    samples: latencies,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
  });
}
