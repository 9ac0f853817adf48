import os from 'node:os';
import {
  type CapturedStatement,
  captureStatements,
  explain,
  type FloorRuns,
  perStatementP50,
  summarize,
  timeStatements,
} from './floor.js';
import { naiveStatements } from './naive.js';
import { type LoadResult, mergeLoads, probe, requestSequence, runLoad } from './http-load.js';
import type { BenchOptions } from './options.js';
import type { HttpOutcome } from './report.js';
import type { BenchContext, HttpScenario } from './scenarios.js';
import type { ConnectionSettings } from './seed.js';
import type { ApiServer } from './server.js';
import { whileWriting } from './while-writing.js';

const WARMUP_REQUESTS = 5;
const WARMUP_MS = 3_000;
/** A slow scenario's load runs long enough for about this many requests per connection… */
const MIN_REQUESTS_PER_CONNECTION = 3;
/** …but never longer than this. */
const MAX_LOAD_SECONDS = 120;
const FLOOR_MAX_MS = 60_000;
/**
 * A scenario judged on its tail (p99 ≤ k × p50) runs until about this many responses: with the
 * 80 of a 10 s load of a 500 ms search, "p99" was the single slowest response — one stall of a
 * shared machine — and not a percentile.
 */
const TAIL_MIN_RESPONSES = 300;
/** The naive SQL can take seconds at a million users: a few runs tell its p50. */
const NAIVE_RUNS = 5;
/** HTTP load and SQL floor alternate this many times in a scenario that has a floor. */
const FLOOR_ROUNDS = 3;

/** Records the load's numbers (set on `outcome`), logs them and flags non-2xx answers. */
function finish(outcome: HttpOutcome, log: (s: string) => void): HttpOutcome {
  const load = outcome.load as LoadResult;
  outcome.loadAvg = os.loadavg()[0] ?? Number.NaN;
  log(
    `  p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms, ${load.reqPerSec.toFixed(1)} req/s, ` +
      `peak RSS ${(outcome.peakRssMb ?? Number.NaN).toFixed(0)} MB (${JSON.stringify(load.statuses)})`,
  );
  if (load.ok === 0) {
    outcome.status = 'failed';
    outcome.note = `no 2xx response under load (${JSON.stringify(load.statuses)}, ${load.errors} errors)`;
  } else if (load.ok !== load.requests || load.errors > 0) {
    outcome.note = `non-2xx or errors under load: ${JSON.stringify(load.statuses)}, ${load.errors} errors`;
  }
  return outcome;
}

/**
 * One HTTP scenario: a probe (404 marks the route as missing), a warm-up, then the load — with
 * its SQL floor alternating in rounds, or against background writes (`whileWriting`).
 */
export async function runHttpScenario(
  opts: BenchOptions,
  settings: ConnectionSettings,
  ctx: BenchContext,
  server: ApiServer,
  scenario: HttpScenario,
  log: (s: string) => void,
): Promise<HttpOutcome> {
  const connections = scenario.connections ?? opts.connections;
  const next = requestSequence(ctx, scenario);
  const request = next();
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
    warm.push((await probe(ctx, next())).ms);
  }
  // A request that alone takes longer than the duration would yield no sample at all: stretch
  // the load so each connection completes a few even if the server serialises them.
  const slowest = Math.max(...warm);
  let seconds = Math.min(
    Math.max(opts.duration, MAX_LOAD_SECONDS),
    Math.max(opts.duration, Math.ceil((slowest / 1000) * connections * MIN_REQUESTS_PER_CONNECTION)),
  );
  if (seconds > opts.duration) log(`  slow requests (${slowest.toFixed(0)} ms alone): load runs ${seconds} s`);
  const judgedOnTail = [scenario.target, ...(scenario.also ?? [])].some((t) => t.kind === 'tail');
  // As if the connections' requests ran one at a time at the warm-up's median pace (the
  // database's cores are shared by them): long enough whatever they share.
  const median = [...warm].sort((a, b) => a - b)[Math.floor(warm.length / 2)] ?? slowest;
  const tailSeconds = Math.ceil((TAIL_MIN_RESPONSES * median) / 1000);
  // A smoke judges no timing: it needs a sample, not a percentile (a minute of load it spent on one scenario).
  if (judgedOnTail && tailSeconds > seconds && !opts.smoke) {
    seconds = Math.min(MAX_LOAD_SECONDS, tailSeconds);
    log(`  judged on its tail: load runs ${seconds} s, for about ${TAIL_MIN_RESPONSES} responses`);
  }
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
  if (scenario.background?.length) {
    server.resetPeak();
    const rate = scenario.rate ? { rate: scenario.rate } : {};
    const listIdx = (statements ?? []).flatMap((st, i) => (st.auth ? [] : [i]));
    const sql = statements ? { sql: { settings, sqls, listIdx } } : {};
    const measured = await whileWriting(ctx, scenario, { seconds, connections, ...rate, next, ...sql }, log);
    return finish({ ...outcome, ...measured, peakRssMb: server.peakRssMb() }, log);
  }
  // A smoke judges no timing, so alternating gains it nothing: one round (CI runs it beside the browser tests).
  const rounds = statements && !opts.smoke ? FLOOR_ROUNDS : 1;
  const roundSeconds = Math.max(1, Math.ceil(seconds / rounds));
  const loads: LoadResult[] = [];
  const atLoad: FloorRuns = { runs: [], connections };
  server.resetPeak();
  for (let r = 0; r < rounds; r++) {
    loads.push(
      await runLoad(ctx, scenario, {
        seconds: roundSeconds,
        connections,
        ...(scenario.rate ? { rate: scenario.rate } : {}),
        next,
      }),
    );
    if (statements) {
      const part = await timeStatements(settings, sqls, {
        connections,
        runs: Math.max(1, Math.ceil(opts.floorRuns / rounds)),
        maxMs: roundSeconds * 1000,
        warmup: false,
      });
      atLoad.runs.push(...part.runs);
    }
  }
  finish(Object.assign(outcome, { load: mergeLoads(loads), peakRssMb: server.peakRssMb() }), log);
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
  if (scenario.naive && opts.naive) await measureNaive(opts, settings, outcome, log);
  return outcome;
}

/** Times the plain LIKE + COUNT(*) statements of the same list request, alone on one connection. */
async function measureNaive(
  opts: BenchOptions,
  settings: ConnectionSettings,
  outcome: HttpOutcome,
  log: (s: string) => void,
): Promise<void> {
  try {
    const statements = await naiveStatements(opts.databaseUrl, outcome.request.path);
    if (!statements) return;
    const runs = await timeStatements(settings, statements, {
      connections: 1,
      runs: Math.min(opts.floorRuns, NAIVE_RUNS),
      maxMs: FLOOR_MAX_MS,
      warmup: true,
    });
    outcome.naive = {
      ...summarize(
        runs,
        statements.map((_, i) => i),
      ),
      statements,
    };
    log(`  naive LIKE + COUNT(*): p50 ${outcome.naive.p50.toFixed(2)} ms alone`);
  } catch (err) {
    log(`  naive SQL not measured: ${err instanceof Error ? err.message : String(err)}`);
  }
}
