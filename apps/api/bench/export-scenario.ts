import fs from 'node:fs';
import os from 'node:os';
import nodePath from 'node:path';
import { profileLine, readProfileDir } from './cpu-profile.js';
import { type DownloadResult, timeDownload } from './export.js';
import { captureStatements, summarize, timeStatements } from './floor.js';
import type { ExportOutcome } from './report.js';
import type { BenchContext, ExportScenario } from './scenarios.js';
import type { ConnectionSettings } from './seed.js';
import { type ApiServer, startApi } from './server.js';

/**
 * One export: a whole download timed on a fresh API, then its SQL floor — the batch queries of a
 * second download, captured from the general log and replayed in sequence on one connection.
 */
export async function runExportScenario(
  settings: ConnectionSettings,
  ctx: BenchContext,
  server: ApiServer,
  scenario: ExportScenario,
  log: (s: string) => void,
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
  outcome.profile = await profileDownload(settings, ctx, path, log);
  return outcome;
}

/**
 * Where the export's time goes: a third download from an API started under V8's sampling
 * profiler (kept apart from the timed one, which the profiler would slow), summarised by
 * package and source file.
 */
async function profileDownload(
  settings: ConnectionSettings,
  ctx: BenchContext,
  path: string,
  log: (s: string) => void,
): Promise<ExportOutcome['profile']> {
  const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'ua-bench-prof-'));
  try {
    const url = `mysql://${encodeURIComponent(settings.user)}:${encodeURIComponent(settings.password)}@${settings.host}:${settings.port}/${settings.database}`;
    const server = await startApi(url, log, { cpuProfileDir: dir });
    try {
      await drain({ ...ctx, baseUrl: server.baseUrl }, path);
    } finally {
      await server.stop();
    }
    const summary = readProfileDir(dir);
    log(`  CPU profile: ${profileLine(summary)}`);
    return summary;
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    log(`  CPU profile failed: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
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
