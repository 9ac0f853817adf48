import { profileLine } from './cpu-profile.js';
import type { PlanRow } from './floor.js';
import type { ExportOutcome, HttpOutcome, RunInfo } from './report.js';
import { f0, f1, int, ms, statusText } from './report-format.js';

// The report's "Scenarios in detail": each scenario's request, responses, SQL floor, plans and downloads.

const statusesText = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([code, n]) => `${code}×${n.toLocaleString('en')}`)
    .join(', ');

function planTable(rows: PlanRow[]): string[] {
  if (rows.length === 0) return [];
  const cols = ['id', 'select_type', 'table', 'type', 'possible_keys', 'key', 'key_len', 'ref', 'rows', 'Extra'].filter(
    (c) => rows.some((r) => c in r),
  );
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v).replace(/\|/g, '\\|'));
  return [
    `| ${cols.join(' | ')} |`,
    `|${cols.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${cols.map((c) => cell(r[c])).join(' | ')} |`),
  ];
}

/** A request body as JSON, long arrays shortened to their length. */
const bodySummary = (body: unknown) =>
  JSON.stringify(body, (_k, v: unknown) => (Array.isArray(v) && v.length > 4 ? `[…${v.length} ids]` : v));

/** Each HTTP scenario: its request, its responses, the writes beside it, its statements and their plans. */
export function httpDetails(run: RunInfo, all: HttpOutcome[]): string[] {
  const L: string[] = [];
  for (const o of all) {
    L.push(`### ${o.scenario.title}`);
    L.push('');
    L.push(
      `\`${o.request.method} ${o.request.path}\`${o.request.body === undefined ? '' : ` with \`${bodySummary(o.request.body)}\` (the first request; the next ones vary)`}`,
    );
    L.push('');
    if (o.status !== 'ok') {
      L.push(statusText(o));
      L.push('');
      continue;
    }
    const l = o.load;
    if (l) {
      L.push(
        `${int(l.requests)} responses in ${f1(l.seconds)} s (${statusesText(l.statuses)}${l.errors ? `; ${l.errors} errors, ${l.timeouts} timeouts` : ''}); ` +
          `p50 ${ms(l.p50)}, p90 ${ms(l.p90)}, p99 ${ms(l.p99)}, max ${ms(l.max)}; machine load average ${o.loadAvg?.toFixed(2) ?? '—'} right after.`,
      );
      L.push('');
    }
    if (o.quiet) {
      L.push(
        `Without the writes, just before (alternating in rounds): ${int(o.quiet.requests)} responses, p50 ${ms(o.quiet.p50)}, p99 ${ms(o.quiet.p99)}, ${f1(o.quiet.reqPerSec)} req/s. The numbers above are with them. Meanwhile, each on a connection of its own:`,
      );
      L.push('');
      for (const w of o.background ?? []) {
        L.push(
          `- ${w.title}: ${int(w.load.requests)} responses (${statusesText(w.load.statuses)}), p50 ${ms(w.load.p50)}, p99 ${ms(w.load.p99)}.`,
        );
      }
      L.push('');
    }
    if (o.floorError) {
      L.push(`SQL floor not measured: ${o.floorError}`);
      L.push('');
    }
    const fl = o.floor;
    if (fl) {
      L.push(
        `SQL floor: list statements p50 ${ms(fl.list.p50)} (p99 ${ms(fl.list.p99)}, ${fl.list.samples} sequences on ${run.connections} connections at once); ` +
          `on one connection ${ms(fl.single.p50)}; with the auth lookups ${ms(fl.withAuth.p50)}.`,
      );
      L.push('');
      L.push('| # | statement the API issued | auth? | p50 alone |');
      L.push('|---|---|---|---|');
      fl.statements.forEach((s, i) => {
        const alone = fl.perStatement[i] ?? Number.NaN;
        const sql = s.sql.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
        L.push(
          `| ${i + 1} | \`${sql.length > 600 ? `${sql.slice(0, 600)}…` : sql}\` | ${s.auth ? 'auth' : ''} | ${ms(alone)} |`,
        );
      });
      L.push('');
      fl.statements.forEach((s, i) => {
        const plan = fl.plans[i] ?? [];
        if (s.auth || !plan.length) return;
        L.push(`EXPLAIN of statement ${i + 1}:`);
        L.push('');
        L.push(...planTable(plan));
        L.push('');
      });
    }
    if (o.naive) {
      L.push(
        `The plain LIKE + exact COUNT(*) SQL for the same request (no search index, no bound; \`bench/naive.ts\`): p50 ${ms(o.naive.p50)} alone (${o.naive.samples} runs).`,
      );
      L.push('');
      for (const sql of o.naive.statements) L.push(`    ${sql.replace(/\s+/g, ' ')}`);
      L.push('');
    }
  }
  return L;
}

/** Each export: the download, its SQL floor and, when profiled, where its time went. */
export function exportDetails(exports: ExportOutcome[]): string[] {
  const L: string[] = [];
  for (const o of exports) {
    L.push(`### ${o.scenario.title}`);
    L.push('');
    L.push(`\`GET ${o.path}\``);
    L.push('');
    if (o.status !== 'ok' || !o.download) {
      L.push(statusText(o) || 'not run');
      L.push('');
      continue;
    }
    const d = o.download;
    L.push(
      `Status ${d.status}, \`${d.contentType}\`, \`${d.disposition}\`; ${int(d.bytes)} bytes, ${int(d.rows)} data rows; ` +
        `first byte after ${d.ttfbSeconds.toFixed(2)} s, last byte after ${d.seconds.toFixed(2)} s ` +
        `(${int(d.rows / d.seconds)} rows/s); API peak RSS ${f0(d.peakRssMb)} MB (${f0(o.startRssMb ?? Number.NaN)} MB before the download, on a freshly started API).`,
    );
    L.push('');
    L.push(
      o.floor
        ? `SQL floor: the ${int(o.floor.statements)} statements of a second download, replayed in sequence on one connection, took ${o.floor.seconds.toFixed(2)} s.`
        : `SQL floor not measured${o.floorError ? `: ${o.floorError}` : ''}.`,
    );
    L.push('');
    if (o.profile) {
      L.push(
        `CPU profile of a third download (\`node --cpu-prof\`, self time by package or source file): ${profileLine(o.profile)}.`,
      );
      L.push('');
    }
  }

  return L;
}
