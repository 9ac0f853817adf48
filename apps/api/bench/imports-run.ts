import { writeSection } from './report-sections.js';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type mysql from 'mysql2/promise';
import { ROOT_DIR } from '../src/config.js';
import { IMPORT_DOMAINS, insertFloor, writeCsv, writeXlsx } from './imports-data.js';
import {
  cpuSeconds,
  type ImportFigures,
  type ImportRun,
  importsSection,
  importsTable,
  mariadbPid,
} from './imports-report.js';
import { dropScratch, scratchUrl } from './imports-scratch.js';
import { machineInfo, resizeBufferPool } from './machine.js';
import { benchDatabase, connect, connectionSettings } from './seed.js';
import { type ApiServer, startApi } from './server.js';
import { median, percentile, sleep } from './stats.js';

const HELP = `Usage: npm run bench -- --imports [--users N] [--rows N] [--keep] [--innodb-buffer-pool-mb M]
         [--database-url URL] [--report FILE] [--smoke]

  The user-import figures of issue 26, on the compiled API (its own job runner) against MariaDB.
  The bench works in its own scratch database, ua_bench_imports (--smoke: ua_bench_imports_smoke;
  --database-url: that one, whose name must contain "bench"), never in ua_bench: created afresh and
  seeded with N demo users (default 1 000 000) at the start, dropped at the end, also when a step
  fails (--keep leaves it for inspection; after Ctrl-C the next run drops it as it starts). Nothing is deleted in between: each step writes new
  e-mails on a domain of its own.
  1. the floor: --rows users (default 1 000 000) as plain multi-row INSERTs through mysql2,
     with their roles and the triggers firing; kept, so the imports after it meet a larger table;
  2. a CSV of as many rows (name,email,roles,active; ~70 MB) streamed to a temp file;
  3. a dry run of it: upload start → job end (target ≤ 60 s);
  4. create from it: the same time (target ≤ 2 × the floor), the API's peak RSS (≤ 250 MB), and
     GET /users one request at a time for 5 s meanwhile (p50 ≤ 1.5 × alone, measured before);
  5. upsert of the same file again, every line unchanged (target ≤ the create time);
  6. 100 000 lines as XLSX (exceljs's streaming writer) against as many lines as CSV, both
     created, each on its own domain (target ≤ 2.5 ×).
  --innodb-buffer-pool-mb M resizes MariaDB's buffer pool for the run and restores it afterwards
  (the 300 000-line run of 2026-11-26 used 2048: the users, their search grams and the staging tables
  of a million lines do not fit the default 128 MB).
  Fails unless every job succeeded with the expected outcomes. Writes the imports section of the
  report (default docs/PERFORMANCE.md; --smoke: 10 000 users and lines, 2 000 as XLSX, no report).
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
      keep: { type: 'boolean', default: false },
      'innodb-buffer-pool-mb': { type: 'string' },
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
  // Before the seed, which loads the machine itself: what else runs on it.
  const load = os.loadavg()[0] ?? 0;
  const log = (m: string) =>
    process.stdout.write(`[imports ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}\n`);
  const databaseUrl = values['database-url'] ?? scratchUrl(smoke);
  const settings = connectionSettings(databaseUrl);
  // It is dropped at the end: never a database the harness would not itself reseed.
  if (!/bench/i.test(settings.database))
    throw new Error(`--database-url: "${settings.database}" has no "bench" in its name`);
  const poolMb = values['innodb-buffer-pool-mb'] === undefined ? null : Number(values['innodb-buffer-pool-mb']);
  if (poolMb !== null && !(Number.isInteger(poolMb) && poolMb >= 128))
    throw new Error('--innodb-buffer-pool-mb: a whole number of MB, at least 128');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-bench-imports-'));
  const dbPid = mariadbPid();
  let conn: mysql.Connection | null = null;
  let api: ApiServer | null = null;
  let failed = false;
  let restoreBufferPool: (() => Promise<void>) | null = null;
  try {
    if (poolMb !== null) restoreBufferPool = await resizeBufferPool(settings, poolMb, log);
    log(`scratch database ${settings.database}: created afresh, ${users.toLocaleString('en')} demo users`);
    const { token: admin } = await benchDatabase({
      url: databaseUrl,
      smoke,
      reuse: false,
      users,
      tokenName: 'bench-imports',
      log,
    });
    const seedS = (Date.now() - started) / 1000;
    log(`  ready in ${seedS.toFixed(1)} s`);
    const token = admin.token;
    const machine = await machineInfo(settings);
    const db = await connect(settings);
    conn = db;
    const [[mode]] = (await db.query<mysql.RowDataPacket[]>(
      'SELECT @@GLOBAL.innodb_autoinc_lock_mode AS m',
    )) as unknown as [[{ m: number }]];
    if (Number(mode.m) > 1) throw new Error('the floor needs innodb_autoinc_lock_mode ≤ 1 (consecutive ids)');

    log(`writing a CSV of ${rows.toLocaleString('en')} lines, and ${xlsxRows.toLocaleString('en')} as CSV and XLSX`);
    const csv = path.join(dir, 'users.csv');
    const csvMb = (await writeCsv(csv, rows, IMPORT_DOMAINS.lines)) / 1024 ** 2;
    const smallCsv = path.join(dir, 'users-small.csv');
    await writeCsv(smallCsv, xlsxRows, IMPORT_DOMAINS.csv);
    const xlsx = path.join(dir, 'users-small.xlsx');
    const xlsxMb = (await writeXlsx(xlsx, xlsxRows, IMPORT_DOMAINS.xlsx)) / 1024 ** 2;
    log(`  CSV ${csvMb.toFixed(1)} MB, XLSX ${xlsxMb.toFixed(1)} MB`);

    log(`floor: INSERT ${rows.toLocaleString('en')} users with their roles, 1 000 per statement`);
    const floorS = await insertFloor(db, rows, IMPORT_DOMAINS.floor, log);
    log(`  ${floorS.toFixed(1)} s; the rows stay`);

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
      let job = submitted;
      let lastLog = Date.now();
      while (!FINISHED.has(job.status)) {
        await sleep(100);
        const res = await fetch(`${server.baseUrl}/api/jobs/${submitted.id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (!res.ok) throw new Error(`GET /jobs/${submitted.id}: ${res.status} ${await res.text()}`);
        job = ((await res.json()) as { item: JobState }).item;
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
    const small = await runImport('CSV create', smallCsv, 'text/csv', 'mode=create&dryRun=false');
    const smallXlsx = await runImport('XLSX create', xlsx, XLSX_TYPE, 'mode=create&dryRun=false');

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
      seedS,
      floorS,
      dry,
      create,
      peakRssMb,
      aloneP50: alone.p50,
      duringP50: list.p50,
      duringP99: list.p99,
      upsert,
      smallCsv: small,
      smallXlsx,
      totalS: (Date.now() - started) / 1000,
    };
    for (const line of importsTable(figures)) log(line);
    if (report && !failed) {
      writeSection(report, 'imports', importsSection(figures));
      log(`report written to ${report}`);
    }
  } finally {
    // The drop below must run whatever failed before it.
    await api?.stop().catch((e: unknown) => log(`stopping the API: ${String(e)}`));
    await conn?.end().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    if (values.keep) log(`kept database ${settings.database} (--keep): drop it when done`);
    else await dropScratch(settings, log);
    await restoreBufferPool?.().catch((e: unknown) => log(`could not restore the buffer pool size: ${String(e)}`));
  }
  if (failed) {
    log('an import did not end as it should');
    return 1;
  }
  return 0;
}
