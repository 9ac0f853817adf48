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
  /** RSS change over the second half: median of its last quarter minus median of its first. */
  secondHalfGrowthMb: number;
  /** The largest event-loop lag p99 the instance reported in any sampling window. */
  lagP99MaxMs: number;
  lagP99MedianMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** The instance's own event-loop lag p99 (prom-client), read from /api/metrics. */
async function lagP99Ms(instance: ApiInstance): Promise<number> {
  const res = await fetch(`${instance.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const line = text.split('\n').find((l) => l.startsWith('nodejs_eventloop_lag_p99_seconds '));
  return Number(line?.split(' ')[1] ?? Number.NaN) * 1000;
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
  while (Date.now() - started < opts.durationMs) {
    await sleep(opts.sampleEveryMs);
    rss.push([Math.round((Date.now() - started) / 1000), opts.instance.rssBytes() / 2 ** 20]);
    lags.push(await lagP99Ms(opts.instance));
  }
  const report = await load.stop();
  const secondHalf = rss.slice(Math.floor(rss.length / 2)).map(([, mb]) => mb);
  const quarter = Math.max(1, Math.floor(secondHalf.length / 4));
  const finite = lags.filter(Number.isFinite);
  return {
    load: report,
    rss,
    rssStartMb: rss[0]?.[1] ?? 0,
    rssEndMb: rss[rss.length - 1]?.[1] ?? 0,
    secondHalfGrowthMb: median(secondHalf.slice(-quarter)) - median(secondHalf.slice(0, quarter)),
    lagP99MaxMs: Math.max(...finite),
    lagP99MedianMs: median(finite),
  };
}

export function describeSoak(r: SoakReport): string {
  const f = (n: number) => n.toFixed(1);
  return (
    `soak: ${r.load.sent} requests, ${r.load.failed.length} failed; RSS ${f(r.rssStartMb)} MB at the first sample, ` +
    `${f(r.rssEndMb)} MB at the end, ${f(r.secondHalfGrowthMb)} MB change over the second half; ` +
    `event-loop lag p99 median ${f(r.lagP99MedianMs)} ms, max ${f(r.lagP99MaxMs)} ms`
  );
}
