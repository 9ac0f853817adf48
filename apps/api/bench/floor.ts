import type mysql from 'mysql2/promise';
import { type ConnectionSettings, connect } from './seed.js';
import { percentile, sleep } from './stats.js';

/**
 * The SQL floor of a request: the statements the API issued for one request, captured from
 * MariaDB's general log, then replayed directly through mysql2 (same connection settings as the
 * API's pool) on a warm cache. See the "Method" section of the report.
 */

export interface CapturedStatement {
  sql: string;
  /** Authentication and authorisation lookups (token, session, actor, permissions). */
  auth: boolean;
}

const AUTH_PATTERNS = [
  /\bapi_tokens\b/i,
  /\bsessions\b/i,
  /\bpermissions\b/i,
  /\brate_limits\b/i,
  // The actor's own row: one user by primary key (the list reads its rows with `id IN (…)`).
  /^SELECT `id`, `name`, `email`, `is_active` FROM `users` AS `User` WHERE .*`User`\.`id` = \d+/i,
];

const IGNORED = /^\s*(SELECT 1( AS `?ok`?)?|SET\b|SHOW\b|START TRANSACTION|COMMIT|ROLLBACK)\b/i;

/**
 * Waits (at most 60 s) until no connection to `database` but ours has run a statement for
 * 500 ms: requests the load generator abandoned at the end of its run are still finishing.
 */
async function waitForIdle(conn: mysql.Connection, database: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let quiet = 0;
  while (quiet < 5 && Date.now() < deadline) {
    const [rows] = await conn.query<mysql.RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID() AND COMMAND = 'Query'",
      [database],
    );
    quiet = Number(rows[0]?.n ?? 0) === 0 ? quiet + 1 : 0;
    await sleep(100);
  }
}

export const isAuthStatement = (sql: string) => AUTH_PATTERNS.some((re) => re.test(sql));

/**
 * Turns on the general log (to the mysql.general_log table, so no file access to the server is
 * needed), runs `request`, turns it off and returns the statements issued by the API's
 * connections to `settings.database` while it ran. The previous log settings are restored.
 */
export async function captureStatements(
  settings: ConnectionSettings,
  request: () => Promise<unknown>,
): Promise<CapturedStatement[]> {
  const conn = await connect(settings);
  let restore: string[] = [];
  try {
    const [vars] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT @@GLOBAL.general_log AS gl, @@GLOBAL.log_output AS lo, CONNECTION_ID() AS me',
    );
    const v = vars[0] as { gl: number; lo: string; me: number };
    restore = [`SET GLOBAL general_log = ${Number(v.gl) ? 1 : 0}`, `SET GLOBAL log_output = ${conn.escape(v.lo)}`];
    const [procs] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()',
      [settings.database],
    );
    const threads = new Set(procs.map((p) => Number(p.ID)));
    await waitForIdle(conn, settings.database);
    const [[{ t0 }]] = (await conn.query<mysql.RowDataPacket[]>('SELECT CAST(NOW(6) AS CHAR) AS t0')) as unknown as [
      [{ t0: string }],
    ];
    await conn.query("SET GLOBAL log_output = 'TABLE'");
    await conn.query('SET GLOBAL general_log = 1');
    try {
      await request();
      await sleep(100);
    } finally {
      await conn.query(restore[0] as string);
    }
    await conn.query(restore[1] as string);
    restore = [];
    const [rows] = await conn.query<mysql.RowDataPacket[]>(
      `SELECT thread_id, command_type, CONVERT(argument USING utf8mb4) AS argument
         FROM mysql.general_log WHERE event_time >= ? ORDER BY event_time`,
      [t0],
    );
    // Connections the pool opened during the request announce themselves with "… on <db> …".
    for (const r of rows) {
      if (r.command_type === 'Connect' && String(r.argument).includes(` on ${settings.database} `)) {
        threads.add(Number(r.thread_id));
      }
    }
    return rows
      .filter((r) => r.command_type === 'Query' && threads.has(Number(r.thread_id)) && Number(r.thread_id) !== v.me)
      .map((r) => String(r.argument))
      .filter((sql) => !IGNORED.test(sql))
      .map((sql) => ({ sql, auth: isAuthStatement(sql) }));
  } finally {
    for (const stmt of restore) await conn.query(stmt).catch(() => undefined);
    await conn.end().catch(() => undefined);
  }
}

export interface FloorResult {
  /** p50 of the statement sequence (the statements selected), ms. */
  p50: number;
  p99: number;
  samples: number;
}

export interface FloorRuns {
  /** One entry per completed sequence: the time of each statement, ms, in sequence order. */
  runs: number[][];
  connections: number;
}

/**
 * Runs `statements` in sequence, `runs` times on each of `connections` connections at once
 * (after an optional warm-up pass; no new sequence starts after `maxMs`, but each connection
 * completes at least one), recording each statement's time.
 */
export async function timeStatements(
  settings: ConnectionSettings,
  statements: readonly string[],
  opts: { connections: number; runs: number; maxMs: number; warmup?: boolean },
): Promise<FloorRuns> {
  const result: FloorRuns = { runs: [], connections: opts.connections };
  if (statements.length === 0) return result;
  const conns = await Promise.all(Array.from({ length: opts.connections }, () => connect(settings)));
  const deadline = Date.now() + opts.maxMs;
  try {
    if (opts.warmup ?? true) {
      await Promise.all(
        conns.map(async (c) => {
          for (const sql of statements) await c.query(sql);
        }),
      );
    }
    await Promise.all(
      conns.map(async (c) => {
        // At least one sequence per connection, however slow.
        for (let run = 0; run < opts.runs && (run === 0 || Date.now() < deadline); run++) {
          const times: number[] = [];
          for (const sql of statements) {
            const t = performance.now();
            await c.query(sql);
            times.push(performance.now() - t);
          }
          result.runs.push(times);
        }
      }),
    );
  } finally {
    await Promise.all(conns.map((c) => c.end().catch(() => undefined)));
  }
  return result;
}

/** Percentiles of the summed time of the statements at `indices` over all runs. */
export function summarize(r: FloorRuns, indices: readonly number[]): FloorResult {
  const sums = r.runs.map((times) => indices.reduce((acc, i) => acc + (times[i] ?? 0), 0));
  return { p50: percentile(sums, 50), p99: percentile(sums, 99), samples: sums.length };
}

/** p50 of each statement alone, ms. */
export function perStatementP50(r: FloorRuns, count: number): number[] {
  return Array.from({ length: count }, (_, i) =>
    percentile(
      r.runs.map((t) => t[i] ?? Number.NaN),
      50,
    ),
  );
}

export interface PlanRow {
  [column: string]: unknown;
}

/** EXPLAIN of each SELECT statement (tabular form). */
export async function explain(settings: ConnectionSettings, statements: readonly string[]): Promise<PlanRow[][]> {
  const conn = await connect(settings);
  try {
    const plans: PlanRow[][] = [];
    for (const sql of statements) {
      if (!/^\s*SELECT\b/i.test(sql)) {
        plans.push([]);
        continue;
      }
      const [rows] = await conn.query<mysql.RowDataPacket[]>(`EXPLAIN ${sql}`);
      plans.push(rows.map((r) => ({ ...r })));
    }
    return plans;
  } finally {
    await conn.end().catch(() => undefined);
  }
}
