import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_DIR } from '../src/config.js';

export interface BenchOptions {
  users: number;
  /** Audit events to seed (when an audit scenario runs). */
  auditEvents: number;
  /** Seconds of load per HTTP scenario. */
  duration: number;
  connections: number;
  databaseUrl: string;
  reuse: boolean;
  smoke: boolean;
  /** Absolute path of the markdown report. */
  report: string;
  /** Scenario names to run (all when empty). */
  only: string[];
  /** Repetitions for each SQL floor (per connection). */
  floorRuns: number;
  /** Skip the export downloads (they take minutes at a million rows). */
  skipExport: boolean;
  /** Some scenarios (--only) into the default report: written as a section of their own. */
  subset: boolean;
  /** Resize MariaDB's InnoDB buffer pool for the run (restored after); null leaves it alone. */
  bufferPoolMb: number | null;
  /** Declare the six custom attributes of issue 38 and fill them for every demo user. */
  attributes: boolean;
  /** Absolute path of a JSON file for each scenario's p50 and p99 (the growth table reads it); null: none. */
  results: string | null;
  /** Time the naive LIKE + COUNT(*) SQL beside each list scenario (minutes at ten million users). */
  naive: boolean;
}

const HELP = `Usage: npm run bench -- [options]

  --users N            users to seed (default 1000000; --smoke: 10000)
  --audit-events N     audit events to seed when an audit scenario runs (default 10000000;
                       --smoke: 20000); --reuse keeps them, or appends the missing ones
  --duration S         seconds of load per HTTP scenario (default 10; --smoke: 1)
  --connections C      concurrent HTTP connections (default 4)
  --database-url URL   MariaDB/MySQL database (default mysql://root@127.0.0.1:3306/ua_bench;
                       --smoke: …/ua_bench_smoke). Created if missing; reseeded unless --reuse.
  --reuse              keep an already-seeded database holding N demo users (tops it up if short)
  --report FILE        markdown report (default docs/PERFORMANCE.md; --smoke: a temp file)
  --only a,b           run only these scenarios (names as in the report); into the default report,
                       as a section of its own beside the last full run's tables
  --floor-runs R       repetitions of each SQL floor per connection (default 30; --smoke: 5)
  --skip-export        do not time the export downloads (nor the SCIM cursor walk)
  --attributes         declare six custom attributes (department, cost_centre, employee_number,
                       start_date, level, manager) and fill them for every demo user (tops up with
                       --reuse); the attribute scenarios need it (default with --smoke)
  --skip-naive         do not time the naive LIKE + COUNT(*) SQL beside each list scenario
  --results FILE       also write each scenario's p50 and p99 as JSON (what --growth reads)
  --innodb-buffer-pool-mb M
                       resize the server's InnoDB buffer pool to M MB for the run (SET GLOBAL,
                       restored at the end); default: leave the server as it is
  --smoke              10 000 users, 20 000 audit events, 1 s per scenario, temp report; fails
                       unless every scenario answered 2xx and produced numbers
  --soak               instead of the scenarios: 10 minutes of mixed load on one API instance of
                       the scale-out bed, RSS and event-loop lag sampled (--soak --help)
  --webhooks           instead of the scenarios: bulks with a webhook subscribed and the time to
                       deliver their events to a local receiver (--webhooks --help)
  --growth             instead of the scenarios: the list scenarios at 1, 3 and 10 million users, each
                       size a database of its own seeded in bulk, p50 and p99 side by side (--growth --help)
  --jobs               instead of the scenarios: background bulk jobs over every active user, their
                       rate, a dry run, cancel, and the list while one runs (--jobs --help)
  --imports            instead of the scenarios: user imports (CSV and XLSX, a million lines) against
                       a plain INSERT floor: dry run, create, upsert, the list meanwhile (--imports --help)
  --roles              instead of the scenarios: GET /roles, the preview and the save of a change to a
                       role of 800 000 members, and whether a member's next request sees it (--roles --help)
  --password-reset     instead of the scenarios: "forgot password" for an existing, an unknown, an
                       inactive and a deleted account, 200 each, medians compared (--password-reset --help)
  --two-factor         instead of the scenarios: sign-in with the password alone beside password + TOTP
                       code, 200 each, p50s compared (--two-factor --help)
  --profile            instead of the scenarios: one scenario (--scenario NAME, default list-default)
                       under load for --duration S (default 20) against an already-seeded database,
                       the API run with --cpu-prof; prints self and total time by function and owner
  --help               this text
`;

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number, got "${raw}"`);
  return n;
}

export function parseBenchOptions(argv: string[]): BenchOptions | null {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: false,
    options: {
      users: { type: 'string' },
      'audit-events': { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      'database-url': { type: 'string' },
      reuse: { type: 'boolean', default: false },
      report: { type: 'string' },
      only: { type: 'string' },
      'floor-runs': { type: 'string' },
      'skip-export': { type: 'boolean', default: false },
      attributes: { type: 'boolean', default: false },
      'innodb-buffer-pool-mb': { type: 'string' },
      results: { type: 'string' },
      'skip-naive': { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return null;
  }
  const smoke = values.smoke ?? false;
  const databaseUrl = values['database-url'] ?? `mysql://root@127.0.0.1:3306/${smoke ? 'ua_bench_smoke' : 'ua_bench'}`;
  if (!/^(mysql|mariadb):\/\/[^/]+\/[A-Za-z0-9_$]+$/.test(databaseUrl)) {
    throw new Error('--database-url must look like mysql://user:password@host:3306/database (no query string)');
  }
  const report = values.report
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.report)
    : smoke
      ? path.join(os.tmpdir(), `ua-bench-smoke-${process.pid}.md`)
      : path.join(ROOT_DIR, 'docs/PERFORMANCE.md');
  return {
    users: positiveInt('users', values.users, smoke ? 10_000 : 1_000_000),
    auditEvents: positiveInt('audit-events', values['audit-events'], smoke ? 20_000 : 10_000_000),
    duration: positiveInt('duration', values.duration, smoke ? 1 : 10),
    connections: positiveInt('connections', values.connections, 4),
    databaseUrl,
    reuse: values.reuse ?? false,
    smoke,
    report,
    only: (values.only ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    floorRuns: positiveInt('floor-runs', values['floor-runs'], smoke ? 5 : 30),
    skipExport: values['skip-export'] ?? false,
    subset: !smoke && !values.report && Boolean(values.only?.trim()),
    attributes: (values.attributes ?? false) || smoke,
    bufferPoolMb:
      values['innodb-buffer-pool-mb'] === undefined
        ? null
        : positiveInt('innodb-buffer-pool-mb', values['innodb-buffer-pool-mb'], 128),
    naive: !(values['skip-naive'] ?? false),
    results: values.results ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.results) : null,
  };
}
