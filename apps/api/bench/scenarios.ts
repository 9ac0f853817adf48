import type mysql from 'mysql2/promise';
import type { AuditBenchData } from './audit-seed.js';
import { attributeExportScenarios, attributeListScenarios } from './attribute-scenarios.js';
import { auditScenarios } from './audit-scenarios.js';
import { get, qs, searchAndFilterScenarios } from './list-scenarios.js';
import { scimCursorWalk, scimScenarios } from './scim-scenarios.js';
import type { ScimBenchData } from './scim-seed.js';

export { middleEmail } from './list-scenarios.js';

/**
 * The benchmark scenarios. Adding one is a few lines in SCENARIOS: an HTTP scenario is driven by
 * autocannon and compared with the SQL it issues (its floor); an export scenario is timed as one
 * whole download. Targets are those of the read-side and write-side issues, at 1 000 000 users
 * on the 2-core machine.
 */

export interface BenchContext {
  baseUrl: string;
  token: string;
  users: number;
  /** Role name → id. */
  roleIds: ReadonlyMap<string, number>;
  /** Smallest and largest demo user id (never the administrator). */
  demoIdRange: { min: number; max: number };
  /**
   * The newest live, active demo users (id descending, so the default page's rows come first):
   * what the write scenarios deactivate and activate. The harness reactivates them after each.
   */
  writePool: readonly number[];
  /** What the audit scenarios ask for, from the seeded trail; null when no audit scenario runs. */
  audit: AuditBenchData | null;
  /** What the SCIM scenarios use (an external id, their group, a tag for new users); null when none runs. */
  scim: ScimBenchData | null;
}

export type Target =
  /** p50 at most this many milliseconds. */
  | { kind: 'p50'; ms: number }
  /** p50 at most `ratio` × the p50 of the same SQL run directly through mysql2. */
  | { kind: 'floor'; ratio: number }
  /** A whole download within `seconds`, the API's peak RSS within `rssMb`. */
  | { kind: 'download'; seconds: number; rssMb: number }
  /** A whole download within `ratio` × the replay of its own SQL, the API's peak RSS within `rssMb`. */
  | { kind: 'downloadFloor'; ratio: number; rssMb: number }
  /** p50 with the background writes running at most `ratio` × the p50 of the same load without them. */
  | { kind: 'unchanged'; ratio: number }
  /** p50 at most `ratio` × the SQL floor including the authentication lookups every request pays. */
  | { kind: 'floorWithAuth'; ratio: number }
  /** p99 at most `ratio` × p50: no long tail. */
  | { kind: 'tail'; ratio: number }
  /** A whole download within `ratio` × the download of scenario `of` in the same run. */
  | { kind: 'relative'; of: string; ratio: number }
  | { kind: 'none' };

export interface HttpRequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

export interface HttpScenario {
  kind: 'http';
  name: string;
  title: string;
  target: Target;
  /** Further targets, each judged and reported beside the first (issue 24: overhead and tail). */
  also?: readonly Target[];
  /** The request (repeated as is unless `vary` is given). */
  request(ctx: BenchContext): HttpRequestSpec;
  /** The i-th request, for scenarios whose requests must differ (writes). */
  vary?(ctx: BenchContext, i: number): HttpRequestSpec;
  /** Time the SQL this request issues directly through mysql2 (reads only: the floor replays it). */
  floor: boolean;
  /** A GET /users request: also time the plain LIKE/COUNT(*) SQL for it (no index, exact count). */
  naive?: boolean;
  /** Opt-in scenarios run only when named with --only. */
  optIn?: boolean;
  /** It reads the custom attributes `--attributes` seeds: left out of a run without them. */
  attributes?: boolean;
  /** The report's table for it: the audit log's (with the trail's size), else the users'. */
  section?: 'audit';
  /** Concurrent connections, when not the run's --connections (a bulk is one administrator's action). */
  connections?: number;
  /** Requests per second over all connections; unset: each connection sends as fast as answered. */
  rate?: number;
  /** It deactivates users of the write pool: they are reactivated when it ends. */
  writes?: boolean;
  /** Puts back what its writes changed beyond the write pool's status (users it created, memberships). */
  after?(ctx: BenchContext, conn: mysql.Connection): Promise<void>;
  /** It needs `BenchContext.scim` (issue 39). */
  scim?: boolean;
  /**
   * Writers that run while this load is measured, each sending one request at a time, one every
   * `everyMs`; the same load is also measured without them, alternating, and the two p50s
   * compared (target `unchanged`).
   */
  background?: ReadonlyArray<{ scenario: HttpScenario; everyMs: number }>;
}

export interface ExportScenario {
  kind: 'export';
  name: string;
  title: string;
  target: Target;
  format: 'csv' | 'xlsx' | 'json';
  path(ctx: BenchContext): string;
  optIn?: boolean;
  /** It reads the custom attributes `--attributes` seeds: left out of a run without them. */
  attributes?: boolean;
  /**
   * Not one download but a SCIM client's walk: GET `path` with `cursor=`, then each page's
   * `nextCursor` until there is none (bench/scim-walk.ts), timed whole with the API's peak RSS.
   */
  walk?: 'scim-cursor';
}

export type Scenario = HttpScenario | ExportScenario;

const BULK_SET_ACTIVE: HttpScenario = {
  kind: 'http',
  name: 'bulk-set-active',
  title: 'POST /users/bulk setActive, 10 000 ids',
  target: { kind: 'p50', ms: 3_000 },
  floor: false,
  writes: true,
  connections: 1,
  request: (ctx) => bulkSetActive(ctx, 0),
  vary: bulkSetActive,
};

const PATCH_ACTIVE: HttpScenario = {
  kind: 'http',
  name: 'patch-active',
  title: 'PATCH /users/{id}/active',
  target: { kind: 'p50', ms: 30 },
  floor: false,
  writes: true,
  request: (ctx) => patchActive(ctx, 0),
  vary: patchActive,
};

export const SCENARIOS: Scenario[] = [
  {
    kind: 'http',
    name: 'list-default',
    title: 'GET /users, default page',
    target: { kind: 'p50', ms: 50 },
    also: [{ kind: 'floorWithAuth', ratio: 1.5 }],
    floor: true,
    request: () => get('/api/users'),
  },
  ...searchAndFilterScenarios(),
  ...attributeListScenarios(),
  {
    kind: 'http',
    name: 'list-deep-page',
    title: 'GET /users, page 50 000 sorted by name',
    target: { kind: 'p50', ms: 500 },
    floor: true,
    // At 1 000 000 users this is page 50 000 of 10; smaller seeds keep the page inside the data.
    request: (ctx) =>
      get(
        `/api/users?${qs({ sort: 'name', dir: 'asc', page: Math.max(1, Math.min(50_000, Math.floor(ctx.users / 20))) })}`,
      ),
  },
  {
    kind: 'http',
    name: 'selected',
    title: 'GET /users/selected, 10 000 ids',
    target: { kind: 'p50', ms: 300 },
    floor: true,
    request: () => get('/api/users/selected?limit=10000'),
  },
  ...auditScenarios(),
  // The write side: each request really changes rows (deactivates, then on the next pass
  // reactivates, users of the write pool) and takes the same locks a user's request would.
  BULK_SET_ACTIVE,
  PATCH_ACTIVE,
  {
    kind: 'http',
    name: 'list-while-writing',
    title: 'GET /users, default page, 40 req/s, while bulk and single writes run',
    target: { kind: 'unchanged', ratio: 1.3 },
    // Its statements are replayed without and with the writes too: the same p50 both ways
    // means no read waited for a lock.
    floor: true,
    writes: true,
    // Steady reads and writes below what saturates the two cores, so that what is measured is
    // whether a read waits for a write (locks), not how the cores are shared. The writes: 10
    // single status changes a second and a 10 000-id bulk every 2 s, 5 000 rows a second —
    // far more than a team of administrators makes. The bulk's ids include the default page.
    rate: 40,
    request: () => get('/api/users'),
    background: [
      { scenario: BULK_SET_ACTIVE, everyMs: 2_000 },
      { scenario: PATCH_ACTIVE, everyMs: 100 },
    ],
  },
  {
    kind: 'export',
    name: 'export-csv',
    title: 'GET /users/export, CSV, all rows',
    target: { kind: 'downloadFloor', ratio: 1.5, rssMb: 200 },
    format: 'csv',
    path: () => '/api/users/export?format=csv',
  },
  {
    kind: 'export',
    name: 'export-xlsx',
    title: 'GET /users/export, XLSX, all rows',
    target: { kind: 'downloadFloor', ratio: 3, rssMb: 200 },
    format: 'xlsx',
    path: () => '/api/users/export?format=xlsx',
  },
  ...attributeExportScenarios(),
  ...scimScenarios(),
  scimCursorWalk(),
];

/** Ids per bulk request: 10 000 (the API's maximum) at a million users; half the pool in a smoke run. */
const bulkSize = (ctx: BenchContext) => Math.min(10_000, Math.floor(ctx.writePool.length / 2));

/** The newest live users, the default page's rows among them: deactivated, then reactivated. */
function bulkSetActive(ctx: BenchContext, i: number): HttpRequestSpec {
  const ids = ctx.writePool.slice(0, bulkSize(ctx));
  return { method: 'POST', path: '/api/users/bulk', body: { operation: 'setActive', ids, active: i % 2 === 1 } };
}

/** One user per request, each a different one: the first pass deactivates them, the next reactivates. */
function patchActive(ctx: BenchContext, i: number): HttpRequestSpec {
  const ids = ctx.writePool.slice(bulkSize(ctx));
  const id = ids[i % ids.length] as number;
  return { method: 'PATCH', path: `/api/users/${id}/active`, body: { active: Math.floor(i / ids.length) % 2 === 1 } };
}
