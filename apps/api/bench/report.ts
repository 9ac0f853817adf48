import fs from 'node:fs';
import { keepSections } from './report-sections.js';
import path from 'node:path';
import type { ProfileSummary } from './cpu-profile.js';
import type { DownloadResult } from './export.js';
import type { AuditSeed } from './audit-seed.js';
import type { CapturedStatement, FloorResult, PlanRow } from './floor.js';
import type { LoadResult } from './http-load.js';
import type { MachineInfo } from './machine.js';
import { renderAuditSection } from './report-audit.js';
import { exportDetails, httpDetails } from './report-details.js';
import { f0, f1, int } from './report-format.js';
import { METHOD } from './report-method.js';
import { resultTables } from './report-results.js';
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
  /** For a `relative` target: the download time of the scenario it is compared with. */
  baselineSeconds?: number;
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
      ? `- Seeding: ${run.seeded.added.toLocaleString('en')} users added in ${f1(run.seeded.seconds)} s (${int(run.seeded.added / Math.max(run.seeded.seconds, 0.001))} users/s, multi-row INSERTs of 5 000; into an empty database in bulk, the indexes and the search grams built after).`
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
  L.push(...resultTables(http, busy, exports));
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
  L.push(...httpDetails(run, all), ...exportDetails(exports));
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
