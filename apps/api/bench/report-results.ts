import type { ExportOutcome, HttpOutcome } from './report.js';
import { f0, f1, int, ms, ratio, statusText, targetsText, targetText, verdict, verdicts } from './report-format.js';

/** The report's result tables: the users' scenarios, the same lists while writes run, the exports. */
export function resultTables(http: HttpOutcome[], busy: HttpOutcome[], exports: ExportOutcome[]): string[] {
  const L: string[] = [];
  // A run of audit scenarios alone (--only) has no users' table.
  if (http.length) {
    L.push(
      '| Scenario | p50 | p99 | p99 / p50 | req/s | SQL floor p50 | ratio | floor incl. auth | ratio incl. auth | naive LIKE + COUNT(*) p50 | API peak RSS | target | result |',
    );
    L.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const o of http) {
      const l = o.load;
      const s = statusText(o);
      L.push(
        `| ${o.scenario.title} | ${s || ms(l?.p50 ?? Number.NaN)} | ${s ? '' : ms(l?.p99 ?? Number.NaN)} | ${s || !l ? '' : `${(l.p99 / l.p50).toFixed(1)}×`} | ${s ? '' : f1(l?.reqPerSec ?? Number.NaN)} | ${ms(
          o.floor?.list.p50 ?? Number.NaN,
        )} | ${ratio(o, 'list')} | ${ms(o.floor?.withAuth.p50 ?? Number.NaN)} | ${ratio(o, 'withAuth')} | ${
          o.naive ? ms(o.naive.p50) : '—'
        } | ${o.peakRssMb ? `${f0(o.peakRssMb)} MB` : '—'} | ${targetsText(o)} | ${verdicts(o)} |`,
      );
    }
    L.push('');
  }
  if (busy.length) {
    L.push(
      '| While writes run | p50 without writes | p50 with writes | ratio | p99 without | p99 with | its SQL p50 without | its SQL p50 with | writes meanwhile | target | result |',
    );
    L.push('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const o of busy) {
      const [q, l] = [o.quiet?.p50 ?? Number.NaN, o.load?.p50 ?? Number.NaN];
      const writes = (o.background ?? []).map((w) => `${int(w.load.ok)} × ${w.title}`).join('; ');
      L.push(
        statusText(o)
          ? `| ${o.scenario.title} | ${statusText(o)} | | | | | | | | ${targetText(o.scenario.target)} | — |`
          : `| ${o.scenario.title} | ${ms(q)} | ${ms(l)} | ${(l / q).toFixed(2)}× | ${ms(o.quiet?.p99 ?? Number.NaN)} | ${ms(
              o.load?.p99 ?? Number.NaN,
            )} | ${ms(o.listSql?.quiet.p50 ?? Number.NaN)} | ${ms(o.listSql?.busy.p50 ?? Number.NaN)} | ${writes} | ${targetText(o.scenario.target)} | ${verdict(o)} |`,
      );
    }
    L.push('');
  }
  if (exports.length) {
    L.push(
      '| Export (one whole download) | time to last byte | first byte | bytes | rows | SQL floor | ratio | API peak RSS | target | result |',
    );
    L.push('|---|---|---|---|---|---|---|---|---|---|');
    for (const o of exports) {
      const d = o.download;
      const s = statusText(o);
      L.push(
        s || !d
          ? `| ${o.scenario.title} | ${s || '—'} | | | | | | | ${targetText(o.scenario.target)} | — |`
          : `| ${o.scenario.title} | ${d.seconds.toFixed(2)} s | ${d.ttfbSeconds.toFixed(2)} s | ${int(d.bytes)} | ${int(d.rows)} | ${
              o.floor ? `${o.floor.seconds.toFixed(2)} s` : '—'
            } | ${o.floor ? `${(d.seconds / o.floor.seconds).toFixed(2)}×` : '—'} | ${f0(d.peakRssMb)} MB | ${targetText(o.scenario.target)} | ${verdict(o)} |`,
      );
    }
    L.push('');
  }
  return L;
}
