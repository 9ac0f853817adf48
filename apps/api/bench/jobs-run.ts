import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type mysql from 'mysql2/promise';
import { ROOT_DIR } from '../src/config.js';
import type { DownloadResult } from './export.js';
import { exportActiveUsers, jobReport } from './jobs-mass-change.js';
import { machineInfo } from './machine.js';
import { sectionMarkers, writeSection } from './report-sections.js';
import { benchDatabase, connect } from './seed.js';
import { type ApiServer, startApi } from './server.js';
import { median, percentile, sleep } from './stats.js';

const HELP = `Usage: npm run bench -- --jobs [--users N] [--chunk N] [--reuse] [--database-url URL] [--report FILE] [--smoke]
       npm run bench -- --jobs --set-attribute [...]   bulk setAttribute over every active user (--help there)

  The background-job figures of issue 25, on the compiled API (its own job runner) against
  MariaDB:
  1. GET /users (the default page), one request at a time for 5 s, with nothing else running;
  2. a dry run of "every active user" (a job that changes nothing): its time (target ≤ 3 s);
  3. that deactivation for real: users per second (target ≥ 10 000) and the API's peak RSS
     (≤ 250 MB); meanwhile GET /users as in 1 (target: p50 ≤ 1.5 × alone);
  4. a reactivation of every inactive user, cancelled once it has begun: the time from the cancel
     to the job's end (target ≤ 1 s, at most one more chunk);
  5. the reactivation again, to its end: users per second;
  6. issue 40: the deactivation's report (every user it changed) streamed as CSV, against the users
     CSV export of the same rows taken before it (target ≤ 2 ×, RSS ≤ 250 MB); the undo of step 5,
     its dry run (≤ 5 s) and the real one (≥ 10 000 users/s).
  The users active before the run are set active again at the end, and the others inactive, so
  the database ends as it started. Writes the jobs section of the report (default
  docs/PERFORMANCE.md; --smoke: 10 000 users, no report, fails unless every job succeeded).
`;

interface JobState {
  id: number;
  status: string;
  progress: { total: number; processed: number; changed: number; skipped: number };
  counts: Record<string, number>;
}

interface Figures {
  users: number;
  chunk: number;
  machine: string;
  /** The machine's 1-minute load average when the run began. */
  load: number;
  aloneP50: number;
  duringP50: number;
  duringP99: number;
  dryRunS: number;
  deactivated: JobState;
  deactivateS: number;
  peakRssMb: number;
  cancelMs: number;
  cancelChunks: number;
  reactivated: JobState;
  reactivateS: number;
  /** The users CSV export of every active user, taken just before the deactivation changed them. */
  activeExport: DownloadResult;
  /** The deactivation's report: the same rows, as changed. */
  report: DownloadResult;
  undoDryRunS: number;
  undone: JobState;
  undoS: number;
}

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

function caller(api: ApiServer, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return {
    async get<T>(url: string): Promise<T> {
      const res = await fetch(`${api.baseUrl}${url}`, { headers });
      if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async post<T>(url: string, body: unknown): Promise<T> {
      const res = await fetch(`${api.baseUrl}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
  };
}

/** The default page, one request at a time, for `ms`: what an administrator browsing would see. */
async function browse(api: ApiServer, token: string, ms: number) {
  const latencies: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const t0 = performance.now();
    const res = await fetch(`${api.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.ok) latencies.push(performance.now() - t0);
  }
  return { p50: median(latencies), p99: percentile(latencies, 99), n: latencies.length };
}

export async function runJobsBench(argv: string[]): Promise<number> {
  // Issue 38's bulk setAttribute over every active user: a scenario of its own (jobs-attribute-run.ts).
  if (argv.includes('--set-attribute')) return (await import('./jobs-attribute-run.js')).runSetAttributeBench(argv);
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--jobs'),
    options: {
      users: { type: 'string' },
      chunk: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      report: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const smoke = values.smoke;
  const users = Number(values.users ?? (smoke ? 10_000 : 1_000_000));
  const chunk = Number(values.chunk ?? 1_000);
  const report = values.report
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.report)
    : smoke
      ? null
      : path.join(ROOT_DIR, 'docs/PERFORMANCE.md');
  const started = Date.now();
  const log = (m: string) =>
    process.stdout.write(`[jobs ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}\n`);
  const {
    url: databaseUrl,
    settings,
    token: admin,
  } = await benchDatabase({
    url: values['database-url'],
    smoke,
    reuse: values.reuse,
    users,
    tokenName: 'bench-jobs',
    log,
  });
  const token = admin.token;
  const machine = await machineInfo(settings);
  const load = os.loadavg()[0] ?? 0;
  const conn = await connect(settings);
  // The users inactive now are set inactive again at the end: the run leaves the data as it found it.
  // A run stopped before its end left its table, and most users' statuses changed, behind: the
  // statuses it recorded are put back first, so this run measures the seeded shape too.
  const [left] = await conn.query<mysql.RowDataPacket[]>("SHOW TABLES LIKE 'bench_jobs_inactive'");
  if (left.length > 0) {
    log('a stopped run left bench_jobs_inactive: restoring the statuses it recorded');
    await conn.query(RESTORE_STATUSES);
  } else {
    await conn.query(
      'CREATE TABLE bench_jobs_inactive (id INT UNSIGNED PRIMARY KEY) SELECT id FROM users WHERE is_active = 0',
    );
  }
  await conn.query('DELETE FROM rate_limits');
  process.env.JOBS_CHUNK_SIZE = String(chunk);
  const api = await startApi(databaseUrl, log);
  const call = caller(api, token);
  const submit = async (body: Record<string, unknown>) =>
    (await call.post<{ job: JobState }>('/api/users/bulk', body)).job;
  const finish = async (id: number, onProgress?: (job: JobState) => Promise<void>) => {
    for (;;) {
      const { item: job } = await call.get<{ item: JobState }>(`/api/jobs/${id}`);
      if (FINISHED.has(job.status)) return job;
      await onProgress?.(job);
      await sleep(100);
    }
  };
  const everyActive = { selection: { query: { filters: { is_active: 'active' } } } };
  const everyInactive = { selection: { query: { filters: { is_active: 'inactive' } } } };
  let failed = false;
  try {
    log('GET /users alone, 5 s');
    const alone = await browse(api, token, 5_000);

    log('dry run: deactivate every active user');
    let t0 = Date.now();
    const dry = await finish(
      (await submit({ operation: 'setActive', active: false, dryRun: true, ...everyActive })).id,
    );
    const dryRunS = (Date.now() - t0) / 1000;
    log(`  ${dry.status} in ${dryRunS.toFixed(1)} s: ${JSON.stringify(dry.progress)}`);

    log('the users CSV export of every active user (the rows the deactivation will change)');
    const activeExport = await exportActiveUsers(api, token);
    log(`  ${activeExport.rows.toLocaleString('en')} rows in ${activeExport.seconds.toFixed(1)} s`);

    log('deactivate every active user; GET /users meanwhile');
    api.resetPeak();
    t0 = Date.now();
    const deactivation = await submit({ operation: 'setActive', active: false, ...everyActive });
    let during: Awaited<ReturnType<typeof browse>> | null = null;
    const deactivated = await finish(deactivation.id, async (job) => {
      if (!during && job.progress.processed > 0) during = await browse(api, token, smoke ? 500 : 5_000);
    });
    const deactivateS = (Date.now() - t0) / 1000;
    const peakRssMb = api.peakRssMb();
    log(`  ${deactivated.status} in ${deactivateS.toFixed(1)} s: ${JSON.stringify(deactivated.progress)}`);

    log("the deactivation's report, every user it changed (CSV)");
    const changesReport = await jobReport(api, token, deactivation.id);
    log(
      `  ${changesReport.rows.toLocaleString('en')} rows in ${changesReport.seconds.toFixed(1)} s, peak RSS ${changesReport.peakRssMb.toFixed(0)} MB`,
    );

    log('reactivate every inactive user, cancelled once it has begun');
    const doomed = await submit({ operation: 'setActive', active: true, ...everyInactive });
    let atCancel = 0;
    let cancelAt = 0;
    const cancelled = await finish(doomed.id, async (job) => {
      if (cancelAt || job.progress.processed === 0) return;
      atCancel = job.progress.processed;
      cancelAt = Date.now();
      await call.post(`/api/jobs/${doomed.id}/cancel`, {});
    });
    const cancelMs = cancelAt ? Date.now() - cancelAt : Number.NaN;
    const cancelChunks = Math.ceil((cancelled.progress.processed - atCancel) / chunk);
    log(`  ${cancelled.status} ${cancelMs} ms after the cancel, ${cancelChunks} chunk(s) later`);

    log('reactivate every inactive user');
    t0 = Date.now();
    const reactivated = await finish((await submit({ operation: 'setActive', active: true, ...everyInactive })).id);
    const reactivateS = (Date.now() - t0) / 1000;
    log(`  ${reactivated.status} in ${reactivateS.toFixed(1)} s: ${JSON.stringify(reactivated.progress)}`);

    log('undo the reactivation: dry run, then for real');
    t0 = Date.now();
    const undoDry = await finish(
      (await call.post<{ job: JobState }>(`/api/jobs/${reactivated.id}/undo`, { dryRun: true })).job.id,
    );
    const undoDryRunS = (Date.now() - t0) / 1000;
    log(`  dry run ${undoDry.status} in ${undoDryRunS.toFixed(1)} s: ${JSON.stringify(undoDry.progress)}`);
    t0 = Date.now();
    const undone = await finish((await call.post<{ job: JobState }>(`/api/jobs/${reactivated.id}/undo`, {})).job.id);
    const undoS = (Date.now() - t0) / 1000;
    log(`  ${undone.status} in ${undoS.toFixed(1)} s: ${JSON.stringify(undone.progress)}`);

    failed =
      [dry, deactivated, reactivated, undoDry, undone].some((j) => j.status !== 'succeeded') ||
      cancelled.status !== 'cancelled' ||
      changesReport.rows < deactivated.progress.changed;
    const figures: Figures = {
      users,
      chunk,
      machine: `${machine.cpu}, ${machine.cores} cores, ${machine.mariadb}, buffer pool ${machine.bufferPoolMb} MB`,
      load,
      aloneP50: alone.p50,
      duringP50: (during as Awaited<ReturnType<typeof browse>> | null)?.p50 ?? Number.NaN,
      duringP99: (during as Awaited<ReturnType<typeof browse>> | null)?.p99 ?? Number.NaN,
      dryRunS,
      deactivated,
      deactivateS,
      peakRssMb,
      cancelMs,
      cancelChunks,
      reactivated,
      reactivateS,
      activeExport,
      report: changesReport,
      undoDryRunS,
      undone,
      undoS,
    };
    for (const line of table(figures)) log(line);
    if (report && !failed) {
      writeSection(report, 'jobs', section(figures));
      log(`report written to ${report}`);
    }
  } finally {
    // A job that failed says only "the log has the details": print the API's last lines, so the
    // run that showed it (a CI smoke, say) shows why.
    if (failed) log(`the API's last output:\n${api.output()}`);
    await api.stop();
    // The undo left every user inactive, as before step 5; without it (a failed run) all are active.
    await conn.query(RESTORE_STATUSES);
    await conn.query('DROP TABLE bench_jobs_inactive');
    await conn.end();
  }
  if (failed) {
    log('a job did not end as it should');
    return 1;
  }
  return 0;
}

/** Every user's status as bench_jobs_inactive recorded it before the run. */
const RESTORE_STATUSES =
  'UPDATE users u LEFT JOIN bench_jobs_inactive b ON b.id = u.id SET u.is_active = (b.id IS NULL) WHERE u.is_active <> (b.id IS NULL)';

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 2 : 1)} ms` : '—');
const rate = (job: JobState, seconds: number) => Math.round(job.progress.processed / seconds);
const verdict = (ok: boolean) => (ok ? 'pass' : 'miss');

function table(f: Figures): string[] {
  const down = rate(f.deactivated, f.deactivateS);
  const up = rate(f.reactivated, f.reactivateS);
  const ratio = f.duringP50 / f.aloneP50;
  const reportRatio = f.report.seconds / f.activeExport.seconds;
  const undoRate = rate(f.undone, f.undoS);
  return [
    '| Scenario | Measured | Target | Result |',
    '|---|---|---|---|',
    `| deactivate every active user (${f.deactivated.progress.processed.toLocaleString('en')}) | ${f.deactivateS.toFixed(1)} s, **${down.toLocaleString('en')} users/s**, API peak RSS ${f.peakRssMb.toFixed(0)} MB | ≥ 10 000 users/s, ≤ 250 MB | ${verdict(down >= 10_000 && f.peakRssMb <= 250)} |`,
    `| reactivate every inactive user (${f.reactivated.progress.processed.toLocaleString('en')}) | ${f.reactivateS.toFixed(1)} s, **${up.toLocaleString('en')} users/s** | ≥ 10 000 users/s | ${verdict(up >= 10_000)} |`,
    `| dry run of the deactivation | ${f.dryRunS.toFixed(1)} s | ≤ 3 s | ${verdict(f.dryRunS <= 3)} |`,
    `| GET /users p50 while the job runs | ${ms(f.duringP50)} (p99 ${ms(f.duringP99)}), alone ${ms(f.aloneP50)}: ${ratio.toFixed(2)}× | ≤ 1.5 × alone | ${verdict(ratio <= 1.5)} |`,
    `| cancel → job stops | ${f.cancelMs} ms, ${f.cancelChunks} chunk(s) after | ≤ 1 chunk, ≤ 1 s | ${verdict(f.cancelMs <= 1_000 && f.cancelChunks <= 1)} |`,
    `| the deactivation's report, CSV (${f.report.rows.toLocaleString('en')} rows) | ${f.report.seconds.toFixed(1)} s, API peak RSS ${f.report.peakRssMb.toFixed(0)} MB; users CSV export of the same ${f.activeExport.rows.toLocaleString('en')} rows ${f.activeExport.seconds.toFixed(1)} s: ${reportRatio.toFixed(2)}× | ≤ 2 × the export, ≤ 250 MB | ${verdict(reportRatio <= 2 && f.report.peakRssMb <= 250)} |`,
    `| dry run of the undo of the reactivation | ${f.undoDryRunS.toFixed(1)} s | ≤ 5 s | ${verdict(f.undoDryRunS <= 5)} |`,
    `| undo of the reactivation (${f.undone.progress.processed.toLocaleString('en')}) | ${f.undoS.toFixed(1)} s, **${undoRate.toLocaleString('en')} users/s** | ≥ 10 000 users/s | ${verdict(undoRate >= 10_000)} |`,
  ];
}

function section(f: Figures): string {
  const { start, end } = sectionMarkers('jobs');
  return [
    start,
    '## Background jobs',
    '',
    `Written by \`npm run bench -- --jobs --reuse\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: ${f.users.toLocaleString('en')} users, chunks of ${f.chunk.toLocaleString('en')}, one API process (its own runner); ${f.machine}; load average ${f.load.toFixed(2)} at the start.`,
    '',
    ...table(f),
    '',
    'GET /users is the default page, one request at a time. The reactivation takes every inactive user, including those inactive before the run; its undo (`POST /jobs/{id}/undo`, the same runner, chunks and rules as any bulk job) puts every one of them back, after a dry run that judges each as the undo would. The report is `GET /jobs/{id}/report?format=csv` of the deactivation, one line per user it touched; the export beside it is `GET /users/export?format=csv` of every active user, taken just before the deactivation, so both are the same rows. The run sets the users active or inactive as they were at its start.',
    end,
  ].join('\n');
}
