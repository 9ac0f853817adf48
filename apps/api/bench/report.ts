import fs from 'node:fs';
import { keepSections } from './report-sections.js';
import path from 'node:path';
import { type ProfileSummary, profileLine } from './cpu-profile.js';
import type { DownloadResult } from './export.js';
import type { AuditSeed } from './audit-seed.js';
import type { CapturedStatement, FloorResult, PlanRow } from './floor.js';
import type { LoadResult } from './http-load.js';
import type { MachineInfo } from './machine.js';
import { renderAuditSection } from './report-audit.js';
import { f0, f1, int, ms, ratio, statusText, targetsText, targetText, verdict, verdicts } from './report-format.js';
import { METHOD } from './report-method.js';
import type { ExportScenario, HttpRequestSpec, HttpScenario } from './scenarios.js';

export { targetsText, verdicts } from './report-format.js';

export type OutcomeStatus = 'ok' | 'missing' | 'failed';

export interface FloorOutcome {
  statements: CapturedStatement[];
  /** The list's own statements on `connections` connections at once (the target's floor). */
  list: FloorResult;
  /** The same plus the authentication lookups. */
  withAuth: FloorResult;
  /** The list's own statements on one connection. */
  single: FloorResult;
  /** p50 of each statement alone on one connection, in `statements` order. */
  perStatement: number[];
  plans: PlanRow[][];
}

export interface HttpOutcome {
  kind: 'http';
  scenario: HttpScenario;
  request: HttpRequestSpec;
  status: OutcomeStatus;
  note?: string;
  load?: LoadResult;
  peakRssMb?: number;
  floor?: FloorOutcome;
  floorError?: string;
  /** 1-minute load average right after the load phase. */
  loadAvg?: number;
  /** With background writes: the same load without them (`load` is the one with them). */
  quiet?: LoadResult;
  /** With background writes: what each writer did meanwhile. */
  background?: Array<{ title: string; load: LoadResult }>;
  /** With background writes: the list's own statements replayed without and with them. */
  listSql?: { quiet: FloorResult; busy: FloorResult };
  /** The plain LIKE + exact COUNT(*) SQL for the same list request (bench/naive.ts), alone. */
  naive?: FloorResult & { statements: string[] };
}

export interface ExportOutcome {
  kind: 'export';
  scenario: ExportScenario;
  path: string;
  status: OutcomeStatus;
  note?: string;
  download?: DownloadResult;
  /** RSS of the freshly started API the export ran on, before the download. */
  startRssMb?: number;
  /** The batch queries the export issued, replayed in sequence on one connection. */
  floor?: { statements: number; seconds: number };
  floorError?: string;
  /** Where a profiled download's main-thread time went. */
  profile?: ProfileSummary;
}

export type Outcome = HttpOutcome | ExportOutcome;

export interface RunInfo {
  date: Date;
  users: number;
  seeded: { seconds: number; added: number } | null;
  /** The audit trail the audit scenarios read; null when none ran. */
  audit: AuditSeed | null;
  durationS: number;
  connections: number;
  floorRuns: number;
  smoke: boolean;
  database: string;
  command: string;
  totalSeconds: number;
  /** The API's RSS once started and answering, before any scenario. */
  apiIdleRssMb: number;
  /** RSS the moment /api/health first answers, before V8 gives back what starting grew. */
  apiStartRssMb: number;
  /** Set when --innodb-buffer-pool-mb resized the server's buffer pool for this run. */
  bufferPoolSetMb: number | null;
}

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

const NOTES_START = '<!-- bench:notes:start -->';
const NOTES_END = '<!-- bench:notes:end -->';

/** The hand-written analysis between the notes markers survives regeneration of the report. */
function previousNotes(file: string): string | null {
  try {
    const text = fs.readFileSync(file, 'utf8');
    const a = text.indexOf(NOTES_START);
    const b = text.indexOf(NOTES_END);
    if (a >= 0 && b > a) return text.slice(a, b + NOTES_END.length);
  } catch {
    // no previous report
  }
  return null;
}

export function renderReport(file: string, run: RunInfo, machine: MachineInfo, outcomes: Outcome[]): string {
  const L: string[] = [];
  const all = outcomes.filter((o): o is HttpOutcome => o.kind === 'http');
  const http = all.filter((o) => !o.scenario.background && o.scenario.section !== 'audit');
  const busy = all.filter((o) => o.scenario.background);
  const exports = outcomes.filter((o): o is ExportOutcome => o.kind === 'export');
  L.push('# Performance');
  L.push('');
  L.push(
    `Written by \`npm run bench\` (\`apps/api/bench/\`) on ${run.date.toISOString().replace(/\.\d+Z$/, 'Z')}` +
      `${run.smoke ? ' — **smoke run**: too few users for the targets to mean anything' : ''}. ` +
      'Regenerate it with the command below; the notes section is kept across runs.',
  );
  L.push('');
  L.push(`    ${run.command}`);
  L.push('');
  L.push('## Machine');
  L.push('');
  L.push('| CPU | cores | RAM | OS | Node | MariaDB | InnoDB buffer pool | load avg at start |');
  L.push('|---|---|---|---|---|---|---|---|');
  L.push(
    `| ${machine.cpu} | ${machine.cores} | ${f1(machine.ramGb)} GB | ${machine.os} | ${machine.node} | ${machine.mariadb} | ${f0(machine.bufferPoolMb)} MB | ${machine.loadAvg.toFixed(2)} |`,
  );
  L.push('');
  L.push('## Run');
  L.push('');
  L.push(
    `- Users: **${run.users.toLocaleString('en')}** demo users (+ the administrator), with roles, in \`${run.database}\`.`,
  );
  L.push(
    run.seeded
      ? `- Seeding: ${run.seeded.added.toLocaleString('en')} users added in ${f1(run.seeded.seconds)} s (${int(run.seeded.added / Math.max(run.seeded.seconds, 0.001))} users/s, multi-row INSERTs of 5 000).`
      : '- Seeding: reused the database as it was (`--reuse`).',
  );
  L.push(
    `- Load: autocannon over loopback, ${run.connections} connections, ${run.durationS} s per scenario after a warm-up; latencies are every 2xx response's time.`,
  );
  L.push(
    `- SQL floor: up to ${run.floorRuns} sequences per connection, interleaved with the HTTP load; the whole run took ${f0(run.totalSeconds)} s.`,
  );
  if (run.bufferPoolSetMb) {
    L.push(
      `- InnoDB buffer pool resized to ${run.bufferPoolSetMb} MB for this run (\`--innodb-buffer-pool-mb\`), restored afterwards.`,
    );
  }
  L.push(
    `- API runtime: \`node dist/main.js\` (compiled, as \`npm start\` runs it). RSS when ready: ${f0(run.apiStartRssMb)} MB; idle once settled, before any scenario: **${f0(run.apiIdleRssMb)} MB** (target ≤ 100 MB: ${run.apiIdleRssMb <= 100 ? 'pass' : 'miss'}).`,
  );
  L.push('');
  L.push('## Results');
  L.push('');
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
  L.push(...renderAuditSection(run, all));
  if (!run.smoke && run.users !== 1_000_000) {
    L.push(`The targets are set for 1 000 000 users; this run had ${run.users.toLocaleString('en')}.`);
    L.push('');
  }

  L.push(
    previousNotes(file) ??
      `${NOTES_START}\n## Notes\n\n(Analysis of the numbers above: written by hand, kept when the report is regenerated.)\n${NOTES_END}`,
  );
  L.push('');

  L.push('## Scenarios in detail');
  L.push('');
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

  L.push('## Method', '', ...METHOD);
  L.push('');
  return `${L.join('\n')}\n`;
}

export function writeReport(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // The soak and webhook runs (--soak, --webhooks) write their own sections; a full run keeps them.
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  fs.writeFileSync(file, keepSections(old, text));
}
