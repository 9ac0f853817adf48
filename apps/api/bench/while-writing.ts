import { type FloorResult, type FloorRuns, summarize, timeStatements } from './floor.js';
import { type LoadResult, mergeLoads, probe, requestSequence, runLoad, toLoadResult } from './http-load.js';
import type { BenchContext, HttpRequestSpec, HttpScenario } from './scenarios.js';
import type { ConnectionSettings } from './seed.js';
import { sleep } from './stats.js';

/** Quiet and busy phases alternate this many times, so both see the same background on a shared machine. */
const ROUNDS = 2;
/** The writers start this long before the measured load and stop this long after it. */
const WRITER_LEAD_S = 2;
/** After each HTTP phase, the list's own statements are replayed for this long on one connection. */
const SQL_PHASE_S = 3;

/** The list's statements, to replay through mysql2 in both phases (`listIdx`: the non-auth ones). */
export interface SqlReplay {
  settings: ConnectionSettings;
  sqls: readonly string[];
  listIdx: readonly number[];
}

export interface WhileWriting {
  /** The load measured while the writers ran. */
  load: LoadResult;
  /** The same load measured without them, just before. */
  quiet: LoadResult;
  /** What each writer did meanwhile (one request at a time each). */
  background: Array<{ title: string; load: LoadResult }>;
  /**
   * The list's own statements replayed without and with the writers: if these stay level while
   * the HTTP p50 moves, the reads did not wait for the writes' locks; the cores were shared.
   */
  listSql?: { quiet: FloorResult; busy: FloorResult };
}

/**
 * Measures `scenario`'s load alone, then again while each of its background scenarios writes,
 * one request at a time at its own pace, in alternating rounds. A read that waited for a writer's row locks
 * (or for its stats row) would show here as a p50 that moves.
 */
export async function whileWriting(
  ctx: BenchContext,
  scenario: HttpScenario,
  opts: { seconds: number; connections: number; rate?: number; next: () => HttpRequestSpec; sql?: SqlReplay },
  log: (s: string) => void,
): Promise<WhileWriting> {
  const { sql, ...load } = opts;
  const sqlRuns = { quiet: { runs: [], connections: 1 } as FloorRuns, busy: { runs: [], connections: 1 } as FloorRuns };
  const replay = async (into: FloorRuns) => {
    if (!sql) return;
    const r = await timeStatements(sql.settings, sql.sqls, {
      connections: 1,
      runs: 10_000,
      maxMs: SQL_PHASE_S * 1000,
      warmup: false,
    });
    into.runs.push(...r.runs);
  };
  // Each phase runs the whole duration: a bulk every 2 s needs several seconds to be sampled.
  const roundSeconds = opts.seconds;
  const writers = (scenario.background ?? []).map((w) => ({
    ...w,
    next: requestSequence(ctx, w.scenario),
    loads: [] as LoadResult[],
  }));
  const quiet: LoadResult[] = [];
  const busy: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    quiet.push(await runLoad(ctx, scenario, { ...load, seconds: roundSeconds }));
    await replay(sqlRuns.quiet);
    const writing = roundSeconds + (sql ? SQL_PHASE_S : 0) + 2 * WRITER_LEAD_S;
    const running = writers.map((w) => paced(ctx, w.next, w.everyMs, writing));
    await sleep(WRITER_LEAD_S * 1000);
    busy.push(await runLoad(ctx, scenario, { ...load, seconds: roundSeconds }));
    await replay(sqlRuns.busy);
    const done = await Promise.all(running);
    for (const [i, load] of done.entries()) writers[i]?.loads.push(load);
  }
  const result: WhileWriting = {
    load: mergeLoads(busy),
    quiet: mergeLoads(quiet),
    background: writers.map((w) => ({
      title: `${w.scenario.title}, one every ${w.everyMs >= 1000 ? `${w.everyMs / 1000} s` : `${w.everyMs} ms`}`,
      load: mergeLoads(w.loads),
    })),
    ...(sql
      ? { listSql: { quiet: summarize(sqlRuns.quiet, sql.listIdx), busy: summarize(sqlRuns.busy, sql.listIdx) } }
      : {}),
  };
  log(`  without writes: p50 ${result.quiet.p50.toFixed(2)} ms, p99 ${result.quiet.p99.toFixed(2)} ms`);
  if (result.listSql) {
    log(
      `  list SQL p50 ${result.listSql.quiet.p50.toFixed(2)} ms without writes, ${result.listSql.busy.p50.toFixed(2)} ms with`,
    );
  }
  for (const w of result.background) {
    log(
      `  meanwhile ${w.title}: ${w.load.ok} done, p50 ${w.load.p50.toFixed(0)} ms (${JSON.stringify(w.load.statuses)})`,
    );
  }
  return result;
}

/**
 * One request at a time, each started `everyMs` after the previous one (or as soon as it has
 * answered, if it took longer), for `seconds`.
 */
async function paced(
  ctx: BenchContext,
  next: () => HttpRequestSpec,
  everyMs: number,
  seconds: number,
): Promise<LoadResult> {
  const end = Date.now() + seconds * 1000;
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  while (Date.now() < end) {
    const started = Date.now();
    try {
      const r = await probe(ctx, next());
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status >= 200 && r.status < 300) samples.push(r.ms);
    } catch {
      errors += 1;
    }
    await sleep(Math.max(0, everyMs - (Date.now() - started)));
  }
  return toLoadResult({ samples, statuses, errors, timeouts: 0, seconds });
}
