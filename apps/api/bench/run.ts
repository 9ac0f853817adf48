import type mysql from 'mysql2/promise';
import { type AuditSeed, auditBenchData, seedAuditEvents } from './audit-seed.js';
import { runExportScenario } from './export-scenario.js';
import { runHttpScenario } from './http-scenario.js';
import { cleanupScim, prepareScim } from './scim-seed.js';
import { runCursorWalk } from './scim-walk.js';
import { machineInfo, resizeBufferPool } from './machine.js';
import { type BenchOptions, parseBenchOptions } from './options.js';
import { type Outcome, renderReport, targetsText, verdicts, writeReport } from './report.js';
import { writeSubsetSection } from './report-sections.js';
import { writeResults } from './growth-results.js';
import { seedBenchAttributes } from './attributes-seed.js';
import { smokeProblems } from './smoke.js';
import { runSoak } from './soak-run.js';
import { type BenchContext, middleEmail, SCENARIOS } from './scenarios.js';
import {
  ADMIN_EMAIL,
  adminToken,
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
/** Live, active demo users the write scenarios may deactivate (they are reactivated after each). */
const WRITE_POOL_SIZE = 20_000;

async function benchContext(
  settings: ConnectionSettings,
  token: string,
  users: number,
  baseUrl: string,
  audit: AuditSeed | null,
): Promise<BenchContext> {
  const conn = await connect(settings);
  try {
    const [roles] = await conn.query<mysql.RowDataPacket[]>('SELECT id, name FROM roles');
    const [[range]] = (await conn.query<mysql.RowDataPacket[]>(
      'SELECT MIN(id) AS min, MAX(id) AS max FROM users WHERE email <> ?',
      [ADMIN_EMAIL],
    )) as unknown as [[{ min: number | null; max: number | null }]];
    const [pool] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT id FROM users WHERE deleted_at IS NULL AND is_active = 1 AND email <> ? ORDER BY id DESC LIMIT ?',
      [ADMIN_EMAIL, WRITE_POOL_SIZE],
    );
    return {
      baseUrl,
      token,
      users,
      roleIds: new Map(roles.map((r) => [String(r.name), Number(r.id)])),
      demoIdRange: { min: Number(range.min ?? 0), max: Number(range.max ?? 0) },
      writePool: pool.map((r) => Number(r.id)),
      audit: audit ? await auditBenchData(settings, audit.events, middleEmail({ users })) : null,
      scim: null,
    };
  } finally {
    await conn.end();
  }
}

/** Puts the write scenarios' users back as they were seeded: active (the triggers keep the stats exact). */
async function reactivate(conn: mysql.Connection, ids: readonly number[]): Promise<void> {
  let changed = 0;
  for (let i = 0; i < ids.length; i += 1_000) {
    const [res] = await conn.query<mysql.ResultSetHeader>(
      'UPDATE users SET is_active = 1 WHERE id IN (?) AND is_active = 0',
      [ids.slice(i, i + 1_000)],
    );
    changed += res.affectedRows;
  }
  if (changed) log(`  reactivated the ${changed.toLocaleString('en')} users the scenario left inactive`);
}

async function main(): Promise<number> {
  if (process.argv.includes('--soak')) return runSoak(process.argv.slice(2));
  if (process.argv.includes('--profile')) {
    const { runProfile } = await import('./profile-run.js');
    return runProfile(process.argv.slice(2));
  }
  if (process.argv.includes('--growth')) {
    const { runGrowth } = await import('./growth-run.js');
    return runGrowth(process.argv.slice(2));
  }
  if (process.argv.includes('--jobs')) {
    const { runJobsBench } = await import('./jobs-run.js');
    return runJobsBench(process.argv.slice(2));
  }
  if (process.argv.includes('--imports')) {
    const { runImportsBench } = await import('./imports-run.js');
    return runImportsBench(process.argv.slice(2));
  }
  if (process.argv.includes('--roles')) {
    const { runRolesBench } = await import('./roles-run.js');
    return runRolesBench(process.argv.slice(2));
  }
  if (process.argv.includes('--webhooks')) {
    const { runWebhooksBench } = await import('./webhooks-run.js');
    return runWebhooksBench(process.argv.slice(2));
  }
  if (process.argv.includes('--password-reset')) {
    const { runPasswordResetBench } = await import('./password-reset-run.js');
    return runPasswordResetBench(process.argv.slice(2));
  }
  if (process.argv.includes('--two-factor')) {
    const { runTwoFactorBench } = await import('./two-factor-run.js');
    return runTwoFactorBench(process.argv.slice(2));
  }
  if (process.argv.includes('--invitations')) {
    const { runInvitationsBench } = await import('./invitations-run.js');
    return runInvitationsBench(process.argv.slice(2));
  }
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
    opts.only.length
      ? opts.only.includes(s.name)
      : !s.optIn && !(opts.skipExport && s.kind === 'export') && (opts.attributes || !s.attributes),
  );
  const machine = await machineInfo(settings);
  log(
    `machine: ${machine.cpu}, ${machine.cores} cores, MariaDB ${machine.mariadb}, buffer pool ${machine.bufferPoolMb} MB`,
  );

  await ensureDatabase(settings, !opts.reuse, log);
  const db = await prepareSchema(opts.databaseUrl);
  let token: { id: number; token: string };
  let seeded: { seconds: number; added: number } | null = null;
  let audit: AuditSeed | null = null;
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
    if (opts.attributes) {
      const seconds = await seedBenchAttributes(settings, log);
      if (seconds) log(`filled six attributes for every demo user in ${seconds.toFixed(1)} s`);
    }
    // Ten million events take minutes to write: only for a run that reads them.
    if (scenarios.some((s) => s.kind === 'http' && s.section === 'audit')) {
      audit = await seedAuditEvents(settings, opts.auditEvents, { check: opts.smoke }, log);
    }
    token = await adminToken(db, 'bench');
  } finally {
    await db.close();
  }

  const cleanupConn = await connect(settings);
  // Earlier runs' export windows must not answer 429 to this one.
  await cleanupConn.query('DELETE FROM rate_limits').catch(() => undefined);

  const outcomes: Outcome[] = [];
  let apiIdleRssMb = Number.NaN;
  let apiStartRssMb = Number.NaN;
  let server: ApiServer | null = null;
  const stopAll = async () => {
    if (server) await server.stop().catch(() => undefined);
    server = null;
  };
  onInterrupt.push(stopAll);
  try {
    server = await startApi(opts.databaseUrl, log);
    apiStartRssMb = server.rssMb();
    // The smoke run only checks that the number is produced; the full run waits as long as V8 may.
    apiIdleRssMb = await server.settledRssMb(opts.smoke ? 15 : 30);
    log(`  API RSS when ready: ${apiStartRssMb.toFixed(0)} MB; idle, settled: ${apiIdleRssMb.toFixed(0)} MB`);
    let ctx = await benchContext(settings, token.token, opts.users, server.baseUrl, audit);
    if (scenarios.some((s) => s.kind === 'http' && s.scim)) {
      ctx = { ...ctx, scim: await prepareScim(cleanupConn, ctx) };
      const scimCtx = ctx;
      // Made over SCIM, undone over SCIM: registered after stopAll, so it runs before the API stops.
      onInterrupt.push(() => cleanupScim(cleanupConn, { ...scimCtx, baseUrl: server?.baseUrl ?? scimCtx.baseUrl }));
    }
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
                runHttpScenario(opts, settings, ctx, current, scenario, log),
                (opts.duration + 10 * 60) * 1000,
                scenario.name,
              )
            : scenario.walk
              ? await runCursorWalk(ctx, current, scenario, log)
              : await runExportScenario(settings, ctx, current, scenario, log),
        );
      } catch (err) {
        const note = err instanceof Error ? err.message : String(err);
        log(`  ${scenario.name} failed: ${note}`);
        outcomes.push(
          scenario.kind === 'http'
            ? { kind: 'http', scenario, request: scenario.request(ctx), status: 'failed', note }
            : { kind: 'export', scenario, path: scenario.path(ctx), status: 'failed', note },
        );
      } finally {
        if (scenario.kind === 'http' && scenario.writes) await reactivate(cleanupConn, ctx.writePool);
        if (scenario.kind === 'http' && scenario.after) {
          await scenario
            .after(ctx, cleanupConn)
            .catch((err) => log(`  ${scenario.name}: undoing its writes failed: ${String(err)}`));
        }
      }
    }
    if (ctx.scim) {
      // The API may have been restarted (exports): the group is deleted through the current one.
      const current = await api(false);
      await cleanupScim(cleanupConn, { ...ctx, baseUrl: current.baseUrl }).catch((err) =>
        log(`could not delete the SCIM bench group or created users: ${String(err)}`),
      );
    }
  } finally {
    await stopAll();
    await cleanupConn.query('DELETE FROM api_tokens WHERE id = ?', [token.id]).catch(() => undefined);
    await cleanupConn.end().catch(() => undefined);
  }

  // A `relative` target compares a download with another scenario's in this run.
  for (const o of outcomes) {
    const t = o.scenario.target;
    if (o.kind !== 'export' || t.kind !== 'relative') continue;
    const base = outcomes.find((b) => b.scenario.name === t.of);
    if (base?.kind === 'export' && base.download) o.baselineSeconds = base.download.seconds;
  }

  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
  const text = renderReport(
    opts.report,
    {
      date: new Date(),
      users: opts.users,
      seeded,
      audit,
      durationS: opts.duration,
      connections: opts.connections,
      floorRuns: opts.floorRuns,
      smoke: opts.smoke,
      database: settings.database,
      command,
      totalSeconds: (Date.now() - started) / 1000,
      apiIdleRssMb,
      apiStartRssMb,
      bufferPoolSetMb: opts.bufferPoolMb,
    },
    machine,
    outcomes,
  );
  if (opts.subset) writeSubsetSection(opts.report, text, command, new Date());
  else writeReport(opts.report, text);
  log(`report written to ${opts.report}`);
  if (opts.results) writeResults(opts.results, { users: opts.users, seeded }, outcomes);
  for (const o of outcomes) {
    const main =
      o.kind === 'http'
        ? o.load
          ? `p50 ${o.load.p50.toFixed(2)} ms, p99 ${o.load.p99.toFixed(2)} ms, ${o.load.reqPerSec.toFixed(1)} req/s`
          : o.status
        : o.download
          ? `${o.download.seconds.toFixed(2)} s, ${o.download.rows} rows, RSS ${o.download.peakRssMb.toFixed(0)} MB`
          : o.status;
    log(`  ${o.scenario.name.padEnd(16)} ${main}  [${targetsText(o)}: ${verdicts(o)}]`);
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
