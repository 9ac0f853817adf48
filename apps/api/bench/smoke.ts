import type { Outcome } from './report.js';

/** Smoke: every scenario answered 2xx, nothing else, and produced finite numbers. */
export function smokeProblems(outcomes: Outcome[]): string[] {
  const problems: string[] = [];
  for (const o of outcomes) {
    const name = o.scenario.name;
    if (o.status !== 'ok') {
      problems.push(`${name}: ${o.status === 'missing' ? 'route missing (404)' : 'failed'} ${o.note ?? ''}`.trim());
      continue;
    }
    if (o.kind === 'http') {
      const l = o.load;
      if (!l || l.ok === 0 || l.ok !== l.requests || l.errors > 0) {
        problems.push(`${name}: not every response was 2xx (${JSON.stringify(l?.statuses)}, ${l?.errors ?? 0} errors)`);
      }
      if (!l || ![l.p50, l.p99, l.reqPerSec, o.peakRssMb ?? Number.NaN].every(Number.isFinite)) {
        problems.push(`${name}: missing numbers`);
      }
      for (const w of o.background ?? []) {
        if (w.load.ok === 0 || w.load.ok !== w.load.requests) {
          problems.push(`${name}: background ${w.title} answered ${JSON.stringify(w.load.statuses)}`);
        }
      }
      // A scenario with background writes replays its SQL in both phases instead of a floor.
      const sqlP50 = o.scenario.background ? o.listSql?.busy.p50 : o.floor?.list.p50;
      if (o.scenario.floor && !Number.isFinite(sqlP50 ?? Number.NaN)) {
        problems.push(`${name}: no SQL floor (${o.floorError ?? 'no list statement captured'})`);
      }
    } else {
      const d = o.download;
      if (!d || ![d.seconds, d.bytes, d.rows, d.peakRssMb].every(Number.isFinite) || d.bytes === 0) {
        problems.push(`${name}: missing numbers (bytes ${d?.bytes}, rows ${d?.rows})`);
      }
    }
  }
  return problems;
}
