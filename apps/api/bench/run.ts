/**
 * The benchmark harness (issue 4): seeds N users into MariaDB, starts the API, drives each
 * scenario over loopback, times the same SQL directly through mysql2 as the floor, and writes
 * docs/PERFORMANCE.md. `npm run bench -- --help` lists the options.
 */
import os from 'node:os';
import type mysql from 'mysql2/promise';
import { createApiToken } from '../src/auth/api-tokens.js';
import { type DownloadResult, timeDownload } from './export.js';
import {
  type CapturedStatement,
  captureStatements,
  explain,
  type FloorRuns,
  perStatementP50,
  summarize,
  timeStatements,
} from './floor.js';
import { type LoadResult, mergeLoads, probe, runLoad } from './http-load.js';
import { machineInfo, resizeBufferPool } from './machine.js';
import { type BenchOptions, parseBenchOptions } from './options.js';
import {
  type ExportOutcome,
  type HttpOutcome,
  type Outcome,
  renderReport,
  targetText,
  verdict,
  writeReport,
} from './report.js';
import { type BenchContext, type ExportScenario, type HttpScenario, SCENARIOS } from './scenarios.js';
import {
  ADMIN_EMAIL,
  bulkSeedUsers,
  type ConnectionSettings,
  connect,
  connectionSettings,
  demoUserCount,
  ensureDatabase,
  prepareSchema,
} from './seed.js';
import { type ApiServer, startApi } from './server.js';
import { withTimeout } from './stats.js';

const started = Date.now();
const log = (s: string) =>
  process.stdout.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${s}\n`);

const WARMUP_REQUESTS = 5;
const WARMUP_MS = 3_000;
/** A slow scenario's load runs long enough for about this many requests per connection… */
const MIN_REQUESTS_PER_CONNECTION = 3;
/** …but never longer than this. */
const MAX_LOAD_SECONDS = 120;

/**
 * What must be undone if the run is interrupted (the API process, a resized buffer pool), last
 * registered first. A normal run undoes them itself in its finally blocks.
 */
const onInterrupt: Array<() => Promise<void>> = [];
let interrupted = false;
function interrupt(signal: string) {
  if (interrupted) return;
  interrupted = true;
  log(`${signal}: stopping the API and restoring the server settings`);
  void (async () => {
    for (const undo of [...onInterrupt].reverse()) await undo().catch(() => undefined);
    process.exit(130);
  })();
}
process.once('SIGINT', () => interrupt('SIGINT'));
process.once('SIGTERM', () => interrupt('SIGTERM'));
const FLOOR_MAX_MS = 60_000;
/** HTTP load and SQL floor alternate this many times in a scenario that has a floor. */
const FLOOR_ROUNDS = 3;

async function benchContext(
  settings: ConnectionSettings,
  token: string,
  users: number,
  baseUrl: string,
): Promise<BenchContext> {
  const conn = await connect(settings);
  try {
    const [roles] = await conn.query<mysql.RowDataPacket[]>('SELECT id, name FROM roles');
    const [[range]] = (await conn.query<mysql.RowDataPacket[]>(
      'SELECT MIN(id) AS min, MAX(id) AS max FROM users WHERE email <> ?',
      [ADMIN_EMAIL],
    )) as unknown as [[{ min: number | null; max: number | null }]];
    return {
      baseUrl,
      token,
      users,
      roleIds: new Map(roles.map((r) => [String(r.name), Number(r.id)])),
      demoIdRange: { min: Number(range.min ?? 0), max: Number(range.max ?? 0) },
    };
  } finally {
    await conn.end();
  }
}

async function runHttpScenario(
  opts: BenchOptions,
  settings: ConnectionSettings,
  ctx: BenchContext,
  server: ApiServer,
  scenario: HttpScenario,
): Promise<HttpOutcome> {
  const request = scenario.request(ctx);
  const outcome: HttpOutcome = { kind: 'http', scenario, request, status: 'ok' };
  log(`${scenario.name}: ${request.method} ${request.path}`);
  const first = await probe(ctx, request);
  if (first.status === 404) {
    log(`  404: the route is not there yet (${first.bodySnippet.slice(0, 120)})`);
    return { ...outcome, status: 'missing', note: `404 ${first.bodySnippet.slice(0, 160)}` };
  }
  if (first.status < 200 || first.status >= 300) {
    log(`  ${first.status}: ${first.bodySnippet.slice(0, 200)}`);
    return { ...outcome, status: 'failed', note: `HTTP ${first.status}: ${first.bodySnippet.slice(0, 200)}` };
  }
  const warmupEnd = Date.now() + WARMUP_MS;
  const warm: number[] = [];
  for (let i = 1; i < WARMUP_REQUESTS && (Date.now() < warmupEnd || warm.length === 0); i++) {
    warm.push((await probe(ctx, scenario.vary ? scenario.vary(ctx, i) : request)).ms);
  }
  // A request that alone takes longer than the duration would yield no sample at all: stretch
  // the load so each connection completes a few even if the server serialises them.
  const slowest = Math.max(...warm);
  const seconds = Math.min(
    Math.max(opts.duration, MAX_LOAD_SECONDS),
    Math.max(opts.duration, Math.ceil((slowest / 1000) * opts.connections * MIN_REQUESTS_PER_CONNECTION)),
  );
  if (seconds > opts.duration) log(`  slow requests (${slowest.toFixed(0)} ms alone): load runs ${seconds} s`);
  // The floor's statements are captured first (on the warm, idle server); then the HTTP load and
  // the floor alternate in rounds, so both see the same background load on a shared machine.
  let statements: CapturedStatement[] | null = null;
  if (scenario.floor) {
    try {
      statements = await captureStatements(settings, () => probe(ctx, request));
      if (statements.length === 0) throw new Error('no statement was captured from the general log');
    } catch (err) {
      statements = null;
      outcome.floorError = err instanceof Error ? err.message : String(err);
      log(`  SQL floor not measured: ${outcome.floorError}`);
    }
  }
  const sqls = statements?.map((s) => s.sql) ?? [];
  const rounds = statements ? FLOOR_ROUNDS : 1;
  const roundSeconds = Math.max(1, Math.ceil(seconds / rounds));
  const loads: LoadResult[] = [];
  const atLoad: FloorRuns = { runs: [], connections: opts.connections };
  server.resetPeak();
  for (let r = 0; r < rounds; r++) {
    loads.push(await runLoad(ctx, scenario, { seconds: roundSeconds, connections: opts.connections }));
    if (statements) {
      const part = await timeStatements(settings, sqls, {
        connections: opts.connections,
        runs: Math.max(1, Math.ceil(opts.floorRuns / rounds)),
        maxMs: roundSeconds * 1000,
        warmup: false,
      });
      atLoad.runs.push(...part.runs);
    }
  }
  const load = mergeLoads(loads);
  outcome.load = load;
  outcome.peakRssMb = server.peakRssMb();
  outcome.loadAvg = os.loadavg()[0] ?? Number.NaN;
  log(
    `  p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms, ${load.reqPerSec.toFixed(1)} req/s, ` +
      `peak RSS ${outcome.peakRssMb.toFixed(0)} MB (${JSON.stringify(load.statuses)})`,
  );
  if (load.ok === 0) {
    outcome.status = 'failed';
    outcome.note = `no 2xx response under load (${JSON.stringify(load.statuses)}, ${load.errors} errors)`;
  } else if (load.ok !== load.requests || load.errors > 0) {
    outcome.note = `non-2xx or errors under load: ${JSON.stringify(load.statuses)}, ${load.errors} errors`;
  }

  if (statements) {
    try {
      const all = statements.map((_, i) => i);
      const listIdx = all.filter((i) => !statements[i]?.auth);
      const single = await timeStatements(settings, sqls, {
        connections: 1,
        runs: opts.floorRuns,
        maxMs: FLOOR_MAX_MS,
      });
      outcome.floor = {
        statements,
        list: summarize(atLoad, listIdx),
        withAuth: summarize(atLoad, all),
        single: summarize(single, listIdx),
        perStatement: perStatementP50(single, sqls.length),
        plans: await explain(settings, sqls),
      };
      log(
        `  SQL floor (${listIdx.length} list + ${sqls.length - listIdx.length} auth statements): ` +
          `p50 ${outcome.floor.list.p50.toFixed(2)} ms at ${opts.connections} connections, ` +
          `${outcome.floor.single.p50.toFixed(2)} ms alone, ${outcome.floor.withAuth.p50.toFixed(2)} ms with auth`,
      );
    } catch (err) {
      outcome.floorError = err instanceof Error ? err.message : String(err);
      log(`  SQL floor failed: ${outcome.floorError}`);
    }
  }
  return outcome;
}

async function runExportScenario(
  settings: ConnectionSettings,
  ctx: BenchContext,
  server: ApiServer,
  scenario: ExportScenario,
): Promise<ExportOutcome> {
  const path = scenario.path(ctx);
  log(`${scenario.name}: GET ${path}`);
  const outcome: ExportOutcome = { kind: 'export', scenario, path, status: 'ok', startRssMb: server.rssMb() };
  let d: DownloadResult;
  try {
    d = await timeDownload(ctx, server, scenario);
  } catch (err) {
    return { ...outcome, status: 'failed', note: err instanceof Error ? err.message : String(err) };
  }
  if (d.status === 404) {
    log('  404: the route is not there yet');
    return { ...outcome, status: 'missing', note: `404 ${d.bodySnippet.slice(0, 160)}` };
  }
  if (d.status < 200 || d.status >= 300) {
    log(`  ${d.status}: ${d.bodySnippet.slice(0, 200)}`);
    return { ...outcome, status: 'failed', note: `HTTP ${d.status}: ${d.bodySnippet.slice(0, 200)}` };
  }
  log(
    `  ${d.seconds.toFixed(2)} s to last byte (first ${d.ttfbSeconds.toFixed(2)} s), ${d.bytes.toLocaleString('en')} bytes, ` +
      `${d.rows.toLocaleString('en')} rows, peak RSS ${d.peakRssMb.toFixed(0)} MB`,
  );
  outcome.download = d;
  // The export's SQL floor: a second, untimed download with the general log on captures every
  // batch query it issues; replaying them in sequence on one connection times the SQL alone.
  try {
    const statements = await captureStatements(settings, () => drain(ctx, path));
    const batches = statements.filter((s) => !s.auth).map((s) => s.sql);
    const replay = await timeStatements(settings, batches, {
      connections: 1,
      runs: 1,
      maxMs: 10 * 60_000,
      warmup: false,
    });
    outcome.floor = {
      statements: batches.length,
      seconds:
        summarize(
          replay,
          batches.map((_, i) => i),
        ).p50 / 1000,
    };
    log(`  SQL floor: ${batches.length} statements replayed in ${outcome.floor.seconds.toFixed(2)} s`);
  } catch (err) {
    outcome.floorError = err instanceof Error ? err.message : String(err);
    log(`  SQL floor failed: ${outcome.floorError}`);
  }
  return outcome;
}

/** Downloads `path` whole and discards it (bounded to 15 minutes). */
async function drain(ctx: BenchContext, path: string): Promise<void> {
  const res = await fetch(ctx.baseUrl + path, {
    headers: { authorization: `Bearer ${ctx.token}` },
    signal: AbortSignal.timeout(15 * 60_000),
  });
  if (!res.body) return;
  for await (const _chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    // discard
  }
}

/** Smoke: every scenario answered 2xx, nothing else, and produced finite numbers. */
function smokeProblems(outcomes: Outcome[]): string[] {
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
      if (o.scenario.floor && (!o.floor || !Number.isFinite(o.floor.list.p50))) {
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

async function main(): Promise<number> {
  const opts = parseBenchOptions(process.argv.slice(2));
  if (!opts) return 0;
  const settings = connectionSettings(opts.databaseUrl);
  const unknown = opts.only.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length)
    throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);

  log(
    `${opts.smoke ? 'smoke: ' : ''}${opts.users.toLocaleString('en')} users in ${settings.database}, report → ${opts.report}`,
  );
  // The SQL floor switches the general log on for a moment: an interrupt must not leave it on.
  const logConn = await connect(settings, false);
  const [[logState]] = (await logConn.query<mysql.RowDataPacket[]>(
    'SELECT @@GLOBAL.general_log AS gl, @@GLOBAL.log_output AS lo',
  )) as unknown as [[{ gl: number; lo: string }]];
  await logConn.end();
  onInterrupt.push(async () => {
    const c = await connect(settings, false);
    try {
      await c.query(`SET GLOBAL general_log = ${Number(logState.gl) ? 1 : 0}`);
      await c.query('SET GLOBAL log_output = ?', [logState.lo]);
    } finally {
      await c.end().catch(() => undefined);
    }
  });
  const restoreBufferPool = opts.bufferPoolMb ? await resizeBufferPool(settings, opts.bufferPoolMb, log) : null;
  if (restoreBufferPool) onInterrupt.push(restoreBufferPool);
  try {
    return await benchmark(opts, settings);
  } finally {
    await restoreBufferPool?.().catch((err) => log(`could not restore the buffer pool size: ${String(err)}`));
  }
}

async function benchmark(opts: BenchOptions, settings: ConnectionSettings): Promise<number> {
  const scenarios = SCENARIOS.filter((s) =>
    opts.only.length ? opts.only.includes(s.name) : !s.optIn && !(opts.skipExport && s.kind === 'export'),
  );
  const machine = await machineInfo(settings);
  log(
    `machine: ${machine.cpu}, ${machine.cores} cores, MariaDB ${machine.mariadb}, buffer pool ${machine.bufferPoolMb} MB`,
  );

  await ensureDatabase(settings, !opts.reuse, log);
  const db = await prepareSchema(opts.databaseUrl);
  let token: { id: number; token: string };
  let seeded: { seconds: number; added: number } | null = null;
  try {
    const existing = await demoUserCount(settings);
    if (existing > opts.users) {
      throw new Error(
        `${settings.database} holds ${existing.toLocaleString('en')} demo users, more than --users ${opts.users.toLocaleString('en')}: ` +
          'run without --reuse to reseed it, or pass the right --users.',
      );
    }
    if (existing < opts.users) {
      const add = opts.users - existing;
      log(
        `seeding ${add.toLocaleString('en')} users${existing ? ` (after ${existing.toLocaleString('en')} already there)` : ''}`,
      );
      seeded = { added: add, seconds: await bulkSeedUsers(settings, add, log) };
      log(`seeded ${add.toLocaleString('en')} users in ${seeded.seconds.toFixed(1)} s`);
    } else {
      log(`reusing ${existing.toLocaleString('en')} demo users`);
    }
    const admin = await db.models.User.findOne({ where: { email: ADMIN_EMAIL }, paranoid: false });
    if (!admin) throw new Error(`no administrator ${ADMIN_EMAIL}`);
    token = await createApiToken(db, admin.id, 'bench', new Date(Date.now() + 86_400_000));
  } finally {
    await db.close();
  }

  const cleanupConn = await connect(settings);
  // Earlier runs' export windows must not answer 429 to this one.
  await cleanupConn.query('DELETE FROM rate_limits').catch(() => undefined);

  const outcomes: Outcome[] = [];
  let apiIdleRssMb = Number.NaN;
  let server: ApiServer | null = null;
  const stopAll = async () => {
    if (server) await server.stop().catch(() => undefined);
    server = null;
  };
  onInterrupt.push(stopAll);
  try {
    server = await startApi(opts.databaseUrl, log);
    apiIdleRssMb = server.rssMb();
    log(`  API RSS after start: ${apiIdleRssMb.toFixed(0)} MB`);
    let ctx = await benchContext(settings, token.token, opts.users, server.baseUrl);
    /** The running API, restarted when asked (exports) or when an earlier restart failed. */
    const api = async (fresh: boolean): Promise<ApiServer> => {
      if (server && fresh) await stopAll();
      if (!server) {
        server = await startApi(opts.databaseUrl, log);
        ctx = { ...ctx, baseUrl: server.baseUrl };
      }
      return server;
    };
    for (const scenario of scenarios) {
      try {
        // Exports run on a fresh process: their peak RSS must not include heap grown by the load.
        const current = await api(scenario.kind === 'export');
        outcomes.push(
          scenario.kind === 'http'
            ? await withTimeout(
                runHttpScenario(opts, settings, ctx, current, scenario),
                (opts.duration + 10 * 60) * 1000,
                scenario.name,
              )
            : await runExportScenario(settings, ctx, current, scenario),
        );
      } catch (err) {
        const note = err instanceof Error ? err.message : String(err);
        log(`  ${scenario.name} failed: ${note}`);
        outcomes.push(
          scenario.kind === 'http'
            ? { kind: 'http', scenario, request: scenario.request(ctx), status: 'failed', note }
            : { kind: 'export', scenario, path: scenario.path(ctx), status: 'failed', note },
        );
      }
    }
  } finally {
    await stopAll();
    await cleanupConn.query('DELETE FROM api_tokens WHERE id = ?', [token.id]).catch(() => undefined);
    await cleanupConn.end().catch(() => undefined);
  }

  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
  const text = renderReport(
    opts.report,
    {
      date: new Date(),
      users: opts.users,
      seeded,
      durationS: opts.duration,
      connections: opts.connections,
      floorRuns: opts.floorRuns,
      smoke: opts.smoke,
      database: settings.database,
      command,
      totalSeconds: (Date.now() - started) / 1000,
      apiIdleRssMb,
      bufferPoolSetMb: opts.bufferPoolMb,
    },
    machine,
    outcomes,
  );
  writeReport(opts.report, text);
  log(`report written to ${opts.report}`);
  for (const o of outcomes) {
    const main =
      o.kind === 'http'
        ? o.load
          ? `p50 ${o.load.p50.toFixed(2)} ms, p99 ${o.load.p99.toFixed(2)} ms, ${o.load.reqPerSec.toFixed(1)} req/s`
          : o.status
        : o.download
          ? `${o.download.seconds.toFixed(2)} s, ${o.download.rows} rows, RSS ${o.download.peakRssMb.toFixed(0)} MB`
          : o.status;
    log(`  ${o.scenario.name.padEnd(16)} ${main}  [${targetText(o.scenario.target)}: ${verdict(o)}]`);
  }
  if (opts.smoke) {
    const problems = smokeProblems(outcomes);
    if (problems.length) {
      log(`smoke FAILED:\n  - ${problems.join('\n  - ')}`);
      return 1;
    }
    log('smoke passed: every scenario answered 2xx and produced numbers');
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
