import type { ApiInstance } from './api-instance.js';
import { METRICS_TOKEN } from './cluster.js';
import { ALL_KINDS, type LoadReport, startLoad } from './load.js';
import { sleep } from './ports.js';

export interface SoakOptions {
  instance: ApiInstance;
  cookie: string;
  ids: number[];
  exportRows: number;
  durationMs: number;
  /** How often RSS and the event-loop lag are sampled. */
  sampleEveryMs: number;
}

export interface SoakReport {
  load: LoadReport;
  /** [seconds since start, RSS MB] */
  rss: Array<[number, number]>;
  rssStartMb: number;
  rssEndMb: number;
  /**
   * RSS floor change over the second half: the lowest sample of its last half minus the lowest of
   * its first. Floors, because RSS is a sawtooth between major collections: a peak says when the
   * collector last ran, a rising floor says memory is kept.
   */
  secondHalfGrowthMb: number;
  /** The largest event-loop lag p99 the instance reported in any sampling window. */
  lagP99MaxMs: number;
  lagP99MedianMs: number;
  /** V8 heap in use at each sample, MB (the same sawtooth, without the allocator's slack). */
  heapUsedMb: number[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** The instance's own event-loop lag p99 and V8 heap in use (prom-client), from /api/metrics. */
async function processMetrics(instance: ApiInstance): Promise<{ lagP99Ms: number; heapUsedMb: number }> {
  const res = await fetch(`${instance.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const lines = (await res.text()).split('\n');
  const value = (name: string) => Number(lines.find((l) => l.startsWith(`${name} `))?.split(' ')[1] ?? Number.NaN);
  return {
    lagP99Ms: value('nodejs_eventloop_lag_p99_seconds') * 1000,
    heapUsedMb: value('nodejs_heap_size_used_bytes') / 2 ** 20,
  };
}

/**
 * A steady mixed load on one instance for `durationMs` (loopback, 4 callers, bounded by their
 * answers), with its resident memory and event-loop lag sampled throughout.
 */
export async function soak(opts: SoakOptions): Promise<SoakReport> {
  const load = startLoad({
    baseUrl: opts.instance.baseUrl,
    cookie: opts.cookie,
    ids: opts.ids,
    workers: 4,
    kinds: ALL_KINDS,
    exportRows: opts.exportRows,
    exportEveryMs: 10_000,
  });
  const started = Date.now();
  const rss: Array<[number, number]> = [];
  const lags: number[] = [];
  const heap: number[] = [];
  while (Date.now() - started < opts.durationMs) {
    await sleep(opts.sampleEveryMs);
    rss.push([Math.round((Date.now() - started) / 1000), opts.instance.rssBytes() / 2 ** 20]);
    const m = await processMetrics(opts.instance);
    lags.push(m.lagP99Ms);
    heap.push(m.heapUsedMb);
  }
  const report = await load.stop();
  const secondHalf = rss.slice(Math.floor(rss.length / 2)).map(([, mb]) => mb);
  const middle = Math.max(1, Math.floor(secondHalf.length / 2));
  const finite = lags.filter(Number.isFinite);
  return {
    load: report,
    rss,
    rssStartMb: rss[0]?.[1] ?? 0,
    rssEndMb: rss[rss.length - 1]?.[1] ?? 0,
    secondHalfGrowthMb: Math.min(...secondHalf.slice(middle)) - Math.min(...secondHalf.slice(0, middle)),
    lagP99MaxMs: Math.max(...finite),
    lagP99MedianMs: median(finite),
    heapUsedMb: heap,
  };
}

export function describeSoak(r: SoakReport): string {
  const f = (n: number) => n.toFixed(1);
  return (
    `soak: ${r.load.sent} requests, ${r.load.failed.length} failed; RSS ${f(r.rssStartMb)} MB at the first sample, ` +
    `${f(r.rssEndMb)} MB at the end, floor ${f(r.secondHalfGrowthMb)} MB over the second half; ` +
    `event-loop lag p99 median ${f(r.lagP99MedianMs)} ms, max ${f(r.lagP99MaxMs)} ms`
  );
}
