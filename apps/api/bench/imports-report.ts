import { sectionMarkers } from './report-sections.js';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** One import as the bench saw it: upload start → 202 (the file read into staging) → job end. */
export interface ImportRun {
  status: string;
  /** Upload start → job end. */
  seconds: number;
  /** Upload start → 202: the request streams the file and stages its lines. */
  uploadS: number;
  outcomes: Record<string, number>;
  /** CPU seconds over the run: the API process and the MariaDB server. */
  cpu: { api: number; db: number };
  /** The API's peak RSS (MB) while the request read the file, and while the job ran. */
  rssMb: { upload: number; job: number };
}

export interface ImportFigures {
  /** The command that wrote the section. */
  command: string;
  rows: number;
  xlsxRows: number;
  users: number;
  chunk: string;
  dryChunk: string;
  machine: string;
  /** The machine's 1-minute load average when the run began. */
  load: number;
  csvMb: number;
  xlsxMb: number;
  /** Creating, migrating and seeding the scratch database. */
  seedS: number;
  floorS: number;
  dry: ImportRun;
  create: ImportRun;
  peakRssMb: number;
  aloneP50: number;
  duringP50: number;
  duringP99: number;
  upsert: ImportRun;
  smallCsv: ImportRun;
  smallXlsx: ImportRun;
  /** The whole run until the section is written (the database's drop follows). */
  totalS: number;
}

/** CPU seconds (user + system) a process has used so far; NaN when it cannot be read. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
export function cpuSeconds(pid: number | null): number {
  if (pid === null) return Number.NaN;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return Number.NaN;
  }
}

export function mariadbPid(): number | null {
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      return Number(execFileSync('pgrep', ['-x', name]).toString().trim().split('\n')[0]);
    } catch {
      // not this name
    }
  }
  return null;
}

const MARKERS = sectionMarkers('imports');
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 2 : 1)} ms` : '—');
const s = (v: number) => `${v.toFixed(1)} s`;
const n = (v: number) => v.toLocaleString('en');
const verdict = (ok: boolean) => (ok ? 'pass' : 'miss');
const split = (r: ImportRun) => `upload and staging ${s(r.uploadS)}, job ${s(r.seconds - r.uploadS)}`;
const cpu = (r: ImportRun) =>
  `API ${Math.round((100 * r.cpu.api) / r.seconds)} %, MariaDB ${Math.round((100 * r.cpu.db) / r.seconds)} %`;

export function importsTable(f: ImportFigures): string[] {
  const createRatio = f.create.seconds / f.floorS;
  const listRatio = f.duringP50 / f.aloneP50;
  const xlsxRatio = f.smallXlsx.seconds / f.smallCsv.seconds;
  const unchanged = f.upsert.outcomes.unchanged ?? 0;
  return [
    '| Scenario | Measured | Target | Result |',
    '|---|---|---|---|',
    `| floor: plain multi-row INSERT of as many users (${n(f.rows)}, on their own domain) and their roles (triggers firing) | **${s(f.floorS)}** (${n(Math.round(f.rows / f.floorS))} users/s) | — | — |`,
    `| create ${n(f.rows)} users from a CSV (${f.csvMb.toFixed(0)} MB) | **${s(f.create.seconds)}** (${split(f.create)}): ${createRatio.toFixed(2)}× the floor; API peak RSS ${f.peakRssMb.toFixed(0)} MB (upload ${f.create.rssMb.upload.toFixed(0)}, job ${f.create.rssMb.job.toFixed(0)}) | ≤ 2 × the floor, ≤ 250 MB | ${verdict(createRatio <= 2 && f.peakRssMb <= 250)} |`,
    `| dry run of that file | **${s(f.dry.seconds)}** (${split(f.dry)}) | ≤ 60 s | ${verdict(f.dry.seconds <= 60)} |`,
    `| upsert of the same file again (unchanged: ${n(unchanged)}) | **${s(f.upsert.seconds)}** (${split(f.upsert)}) | ≤ the create time (${s(f.create.seconds)}) | ${verdict(f.upsert.seconds <= f.create.seconds && unchanged === f.rows)} |`,
    `| ${n(f.xlsxRows)}-row XLSX create (${f.xlsxMb.toFixed(1)} MB) | **${s(f.smallXlsx.seconds)}** (${split(f.smallXlsx)}), as many lines as CSV (on another domain) ${s(f.smallCsv.seconds)}: ${xlsxRatio.toFixed(2)}× | ≤ 2.5 × the CSV | ${verdict(xlsxRatio <= 2.5)} |`,
    `| GET /users p50 while the create runs | ${ms(f.duringP50)} (p99 ${ms(f.duringP99)}), alone ${ms(f.aloneP50)}: ${listRatio.toFixed(2)}× | ≤ 1.5 × alone | ${verdict(listRatio <= 1.5)} |`,
  ];
}

/** Where the time went: CPU of the API and of MariaDB per run, in % of one core over its wall time. */
export function importsCpuLines(f: ImportFigures): string[] {
  return [
    `CPU over each run, in % of one core: dry run ${cpu(f.dry)}; create ${cpu(f.create)}; upsert ${cpu(f.upsert)}; ${n(f.xlsxRows)}-row CSV ${cpu(f.smallCsv)}; XLSX ${cpu(f.smallXlsx)}.`,
  ];
}

export function importsSection(f: ImportFigures): string {
  return [
    MARKERS.start,
    '## Imports',
    '',
    `Written by \`${f.command}\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: a scratch database of its own (not \`ua_bench\`), created afresh and seeded with ${n(f.users)} demo users (${s(f.seedS)}); files of ${n(f.rows)} lines (\`name,email,roles,active\`, new e-mails, role viewer) and ${n(f.xlsxRows)} for the XLSX comparison; one API process (its own runner), JOBS_CHUNK_SIZE ${f.chunk}, JOBS_DRY_RUN_CHUNK_SIZE ${f.dryChunk}; ${f.machine}; load average ${f.load.toFixed(2)} at the start (the machine is shared).`,
    '',
    ...importsTable(f),
    '',
    ...importsCpuLines(f),
    '',
    "Times run from the first byte of the upload to the job's end as `GET /api/jobs/{id}` reports it (polled every 100 ms); the upload answers 202 once the file is read into the staging tables. The floor inserts the same number of rows through mysql2 (1 000 per statement, one transaction each) before the imports. Nothing is deleted during the run: the floor, the file of the dry run, create and upsert, and each of the two comparison files write e-mails on a domain of their own, and the floor's rows stay, so every import runs into a table larger than the seed by the floor and the imports before it (conservative: the indexes and the search grams they write to are that much larger). Every import must end `succeeded` with the expected outcomes (create for each line of the dry run, the create and the comparison runs; unchanged for each line of the upsert). GET /users is the default page, one request at a time for 5 s. The scratch database is dropped at the end.",
    '',
    `Rerun (this run took ${f.totalS < 600 ? s(f.totalS) : `${Math.round(f.totalS / 60)} min`} before the database was dropped; \`--smoke\` checks 10 000 lines; \`--keep\` leaves the scratch database for inspection):`,
    '',
    '    npm run bench -- --imports [--rows N] [--users N] [--innodb-buffer-pool-mb M] [--keep]',
    MARKERS.end,
  ].join('\n');
}
