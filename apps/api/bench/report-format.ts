import type { HttpOutcome, Outcome } from './report.js';
import type { Target } from './scenarios.js';

/** How the report writes numbers, targets and verdicts (shared by its sections). */

export const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '—');
export const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');
export const ms = (n: number) =>
  !Number.isFinite(n) ? '—' : n < 10 ? `${n.toFixed(2)} ms` : n < 100 ? `${n.toFixed(1)} ms` : `${n.toFixed(0)} ms`;
export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '—');

export function targetText(t: Target): string {
  switch (t.kind) {
    case 'p50':
      return `p50 ≤ ${t.ms} ms`;
    case 'floor':
      return `p50 ≤ ${t.ratio} × SQL floor`;
    case 'download':
      return `≤ ${t.seconds} s, RSS ≤ ${t.rssMb} MB`;
    case 'downloadFloor':
      return `≤ ${t.ratio} × SQL floor, RSS ≤ ${t.rssMb} MB`;
    case 'unchanged':
      return `p50 ≤ ${t.ratio} × p50 without writes`;
    case 'floorWithAuth':
      return `p50 ≤ ${t.ratio} × SQL floor incl. auth`;
    case 'tail':
      return `p99 ≤ ${t.ratio} × p50`;
    case 'relative':
      return `≤ ${t.ratio} × ${t.of}`;
    case 'none':
      return '—';
  }
}

/** Every target of a scenario: its first, then its `also`. */
const targetsOf = (o: Outcome): Target[] => [o.scenario.target, ...(o.kind === 'http' ? (o.scenario.also ?? []) : [])];

/** "p50 ≤ 50 ms; p50 ≤ 1.5 × SQL floor incl. auth": each target of the scenario. */
export const targetsText = (o: Outcome) => targetsOf(o).map(targetText).join('; ');

/** "pass; miss": the verdict on each target, in `targetsText`'s order. */
export const verdicts = (o: Outcome) =>
  targetsOf(o)
    .map((t) => verdict(o, t))
    .join('; ');

/** 'pass' | 'miss' | '—' (no target or no numbers), on the scenario's first target unless `t` is given. */
export function verdict(o: Outcome, t: Target = o.scenario.target): 'pass' | 'miss' | '—' {
  if (o.status !== 'ok') return '—';
  if (o.kind === 'http') {
    const p50 = o.load?.p50 ?? Number.NaN;
    if (t.kind === 'p50') return p50 <= t.ms ? 'pass' : 'miss';
    if (t.kind === 'floor' || t.kind === 'floorWithAuth') {
      const floor = (t.kind === 'floor' ? o.floor?.list.p50 : o.floor?.withAuth.p50) ?? Number.NaN;
      if (!Number.isFinite(floor)) return '—';
      return p50 <= t.ratio * floor ? 'pass' : 'miss';
    }
    if (t.kind === 'tail') {
      const p99 = o.load?.p99 ?? Number.NaN;
      return Number.isFinite(p99) && Number.isFinite(p50) ? (p99 <= t.ratio * p50 ? 'pass' : 'miss') : '—';
    }
    if (t.kind === 'unchanged') {
      const quiet = o.quiet?.p50 ?? Number.NaN;
      return Number.isFinite(quiet) ? (p50 <= t.ratio * quiet ? 'pass' : 'miss') : '—';
    }
    return '—';
  }
  const d = o.download;
  if (t.kind === 'download' && d) return d.seconds <= t.seconds && d.peakRssMb <= t.rssMb ? 'pass' : 'miss';
  if (t.kind === 'relative' && d && o.baselineSeconds !== undefined) {
    return d.seconds <= t.ratio * o.baselineSeconds ? 'pass' : 'miss';
  }
  if (t.kind === 'downloadFloor' && d && o.floor) {
    return d.seconds <= t.ratio * o.floor.seconds && d.peakRssMb <= t.rssMb ? 'pass' : 'miss';
  }
  return '—';
}

export const ratio = (o: HttpOutcome, which: 'list' | 'withAuth') => {
  const floor = o.floor?.[which].p50 ?? Number.NaN;
  const p50 = o.load?.p50 ?? Number.NaN;
  return Number.isFinite(floor) && floor > 0 && Number.isFinite(p50) ? `${(p50 / floor).toFixed(2)}×` : '—';
};

export const statusText = (o: Outcome) =>
  o.status === 'missing'
    ? `**route not there yet** (${o.note ?? '404'})`
    : o.status === 'failed'
      ? `**failed**: ${o.note ?? ''}`
      : '';
