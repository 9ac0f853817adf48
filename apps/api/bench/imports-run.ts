import { writeSection } from './report-sections.js';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type mysql from 'mysql2/promise';
import { ROOT_DIR } from '../src/config.js';
import {
  dropStaging,
  insertFloor,
  recountStats,
  removeImported,
  sameCounts,
  userCounts,
  writeCsv,
  writeXlsx,
} from './imports-data.js';
import {
  cpuSeconds,
  type ImportFigures,
  type ImportRun,
  importsSection,
  importsTable,
  mariadbPid,
} from './imports-report.js';
import { machineInfo } from './machine.js';
import { benchDatabase, connect } from './seed.js';
import { type ApiServer, startApi } from './server.js';
import { median, percentile, sleep } from './stats.js';

const HELP = `Usage: npm run bench -- --imports [--users N] [--rows N] [--reuse] [--database-url URL] [--report FILE] [--smoke]

  The user-import figures of issue 26, on the compiled API (its own job runner) against MariaDB
  holding N demo users (default 1 000 000; --reuse keeps them):
  1. the floor: the same rows (default 1 000 000) as plain multi-row INSERTs through mysql2,
     with their roles and the triggers firing; deleted again;
  2. a CSV of those rows (name,email,roles,active; ~70 MB) streamed to a temp file;
  3. a dry run of it: upload start → job end (target ≤ 60 s);
  4. create from it: the same time (target ≤ 2 × the floor), the API's peak RSS (≤ 250 MB), and
     GET /users one request at a time for 5 s meanwhile (p50 ≤ 1.5 × alone, measured before);
  5. upsert of the same file again, every line unchanged (target ≤ the create time);
  6. 100 000 lines as XLSX (exceljs's streaming writer) against the same lines as CSV, both
     created (target ≤ 2.5 ×), the users deleted between the runs.
  Every user on the bench's e-mail domain is deleted at the end (their audit rows stay): the user
  count and user_stats end as they started. Writes the imports section of the report (default
  docs/PERFORMANCE.md; --smoke: 10 000 lines, 2 000 as XLSX, no report, fails unless every job
  succeeded with the expected outcomes).
`;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

interface JobState {
  id: number;
  status: string;
  progress: { total: number; processed: number };
  import: { outcomes: Record<string, number> } | null;
}

/** POSTs the file as the request body, streamed from disk; resolves with the job of the 202. */
function upload(api: ApiServer, token: string, file: string, type: string, query: string): Promise<JobState> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${api.baseUrl}/api/users/imports?${query}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type, 'content-length': fs.statSync(file).size },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => {
          if (res.statusCode !== 202) reject(new Error(`POST /users/imports: ${res.statusCode} ${body.slice(0, 500)}`));
          else resolve((JSON.parse(body) as { job: JobState }).job);
        });
      },
    );
    req.on('error', reject);
    fs.createReadStream(file).on('error', reject).pipe(req);
  });
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

export async function runImportsBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--imports'),
    options: {
      users: { type: 'string' },
      rows: { type: 'string' },
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
  const rows = Number(values.rows ?? (smoke ? 10_000 : 1_000_000));
  const xlsxRows = Math.min(rows, smoke ? 2_000 : 100_000);
  const report = values.report
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.report)
    : smoke
      ? null
      : path.join(ROOT_DIR, 'docs/PERFORMANCE.md');
  const started = Date.now();
  const log = (m: string) =>
    process.stdout.write(`[imports ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}\n`);
  const {
    url: databaseUrl,
    settings,
    token: admin,
  } = await benchDatabase({
    url: values['database-url'],
    smoke,
    reuse: values.reuse,
    users,
    tokenName: 'bench-imports',
    log,
  });
  const token = admin.token;
  const machine = await machineInfo(settings);
  const load = os.loadavg()[0] ?? 0;
  const conn = await connect(settings);
  const [[mode]] = (await conn.query<mysql.RowDataPacket[]>(
    'SELECT @@GLOBAL.innodb_autoinc_lock_mode AS m',
  )) as unknown as [[{ m: number }]];
  if (Number(mode.m) > 1) throw new Error('the floor needs innodb_autoinc_lock_mode ≤ 1 (consecutive ids)');
  const leftover = await removeImported(conn, log);
  if (leftover) log(`removed ${leftover.toLocaleString('en')} users an earlier run left`);
  const before = await userCounts(conn);
  log(`users before: ${JSON.stringify(before)}`);
  await conn.query('DELETE FROM rate_limits');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-bench-imports-'));
  const dbPid = mariadbPid();
  let api: ApiServer | null = null;
  let failed = false;
  const jobIds: number[] = [];
  try {
    log(`writing a CSV of ${rows.toLocaleString('en')} lines, and ${xlsxRows.toLocaleString('en')} as CSV and XLSX`);
    const csv = path.join(dir, 'users.csv');
    const csvMb = (await writeCsv(csv, rows)) / 1024 ** 2;
    const smallCsv = path.join(dir, 'users-small.csv');
    await writeCsv(smallCsv, xlsxRows);
    const xlsx = path.join(dir, 'users-small.xlsx');
    const xlsxMb = (await writeXlsx(xlsx, xlsxRows)) / 1024 ** 2;
    log(`  CSV ${csvMb.toFixed(1)} MB, XLSX ${xlsxMb.toFixed(1)} MB`);

    log(`floor: INSERT ${rows.toLocaleString('en')} users with their roles, 1 000 per statement`);
    const floorS = await insertFloor(conn, rows, log);
    log(`  ${floorS.toFixed(1)} s; deleting them`);
    let t0 = Date.now();
    await removeImported(conn, log);
    const floorDeleteS = (Date.now() - t0) / 1000;
    log(`  deleted in ${floorDeleteS.toFixed(1)} s`);

    const server = await startApi(databaseUrl, log);
    api = server;
    log('GET /users alone, 5 s');
    const alone = await browse(server, token, smoke ? 500 : 5_000);
    let during: ReturnType<typeof browse> | null = null;
    /** One import, upload start → job end; `watch` may start work once the job has begun. */
    const runImport = async (what: string, file: string, type: string, query: string, watch = false) => {
      log(`${what}: ${path.basename(file)} ${query}`);
      const cpu0 = { api: cpuSeconds(server.pid), db: cpuSeconds(dbPid) };
      server.resetPeak();
      const begin = Date.now();
      const submitted = await upload(server, token, file, type, query);
      const uploadS = (Date.now() - begin) / 1000;
      // The peak while the request reads the file, then the peak while the job runs.
      const uploadRssMb = server.peakRssMb();
      server.resetPeak();
      log(`  202 after ${uploadS.toFixed(1)} s: job ${submitted.id}`);
      jobIds.push(submitted.id);
      let job = submitted;
      let lastLog = Date.now();
      while (!FINISHED.has(job.status)) {
        await sleep(100);
        const res = await fetch(`${server.baseUrl}/api/jobs/${submitted.id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (!res.ok) throw new Error(`GET /jobs/${submitted.id}: ${res.status} ${await res.text()}`);
        job = ((await res.json()) as { job: JobState }).job;
        if (watch && !during && job.progress.processed > 0) during = browse(server, token, smoke ? 500 : 5_000);
        if (Date.now() - lastLog > 15_000) {
          lastLog = Date.now();
          const rate = job.progress.processed / ((Date.now() - begin) / 1000 - uploadS);
          log(
            `  ${job.progress.processed.toLocaleString('en')} / ${job.progress.total.toLocaleString('en')} lines (${Math.round(rate)}/s)`,
          );
        }
      }
      const seconds = (Date.now() - begin) / 1000;
      const run: ImportRun = {
        status: job.status,
        seconds,
        uploadS,
        outcomes: job.import?.outcomes ?? {},
        cpu: { api: cpuSeconds(server.pid) - cpu0.api, db: cpuSeconds(dbPid) - cpu0.db },
        rssMb: { upload: uploadRssMb, job: server.peakRssMb() },
      };
      log(`  ${run.status} in ${seconds.toFixed(1)} s: ${JSON.stringify(run.outcomes)}`);
      return run;
    };

    const dry = await runImport('dry run', csv, 'text/csv', 'mode=create&dryRun=true');
    const create = await runImport('create', csv, 'text/csv', 'mode=create&dryRun=false', true);
    const peakRssMb = Math.max(create.rssMb.upload, create.rssMb.job);
    const list = (await (during as ReturnType<typeof browse> | null)) ?? { p50: Number.NaN, p99: Number.NaN };
    log(
      `  API peak RSS ${peakRssMb.toFixed(0)} MB; GET /users p50 ${list.p50.toFixed(2)} ms (alone ${alone.p50.toFixed(2)} ms)`,
    );
    const upsert = await runImport('upsert again', csv, 'text/csv', 'mode=upsert&dryRun=false');
    t0 = Date.now();
    await removeImported(conn, log);
    log(`  the imported users deleted in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const small = await runImport('CSV create', smallCsv, 'text/csv', 'mode=create&dryRun=false');
    await removeImported(conn, log);
    const smallXlsx = await runImport('XLSX create', xlsx, XLSX_TYPE, 'mode=create&dryRun=false');
    await removeImported(conn, log);

    const expected: Array<[ImportRun, string, number]> = [
      [dry, 'create', rows],
      [create, 'create', rows],
      [upsert, 'unchanged', rows],
      [small, 'create', xlsxRows],
      [smallXlsx, 'create', xlsxRows],
    ];
    failed = expected.some(([r, outcome, count]) => r.status !== 'succeeded' || r.outcomes[outcome] !== count);
    const figures: ImportFigures = {
      command: `npm run bench -- ${argv.join(' ')}`,
      rows,
      xlsxRows,
      users,
      chunk: process.env.JOBS_CHUNK_SIZE ?? '1 000 (default)',
      dryChunk: process.env.JOBS_DRY_RUN_CHUNK_SIZE ?? '10 000 (default)',
      machine: `${machine.cpu}, ${machine.cores} cores, ${machine.mariadb}, buffer pool ${machine.bufferPoolMb} MB`,
      load,
      csvMb,
      xlsxMb,
      floorS,
      floorDeleteS,
      dry,
      create,
      peakRssMb,
      aloneP50: alone.p50,
      duringP50: list.p50,
      duringP99: list.p99,
      upsert,
      smallCsv: small,
      smallXlsx,
      restored: sameCounts(before, await userCounts(conn)),
    };
    if (!figures.restored) {
      log('user_stats differs from the start: recounting it from the users table');
      await recountStats(conn);
    }
    for (const line of importsTable(figures)) log(line);
    if (report && !failed) {
      writeSection(report, 'imports', importsSection(figures));
      log(`report written to ${report}`);
    }
  } finally {
    await api?.stop();
    const removed = await removeImported(conn, log);
    if (removed) log(`removed ${removed.toLocaleString('en')} bench users left by the failed run`);
    await dropStaging(conn, jobIds);
    const after = await userCounts(conn);
    if (!sameCounts(before, after)) {
      log(`counts differ after the run (${JSON.stringify(after)}): recounting user_stats`);
      await recountStats(conn);
    }
    log(`users after: ${JSON.stringify(await userCounts(conn))}`);
    await conn.query('DELETE FROM api_tokens WHERE id = ?', [admin.id]);
    await conn.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (failed) {
    log('an import did not end as it should');
    return 1;
  }
  return 0;
}
