/**
 * The benchmark scenarios. Adding one is a few lines in SCENARIOS: an HTTP scenario is driven by
 * autocannon and compared with the SQL it issues (its floor); an export scenario is timed as one
 * whole download. Targets are those of issue 4, at 1 000 000 users on the 2-core machine.
 */

export interface BenchContext {
  baseUrl: string;
  token: string;
  users: number;
  /** Role name → id. */
  roleIds: ReadonlyMap<string, number>;
  /** Smallest and largest demo user id (never the administrator). */
  demoIdRange: { min: number; max: number };
}

export type Target =
  /** p50 at most this many milliseconds. */
  | { kind: 'p50'; ms: number }
  /** p50 at most `ratio` × the p50 of the same SQL run directly through mysql2. */
  | { kind: 'floor'; ratio: number }
  /** A whole download within `seconds`, the API's peak RSS within `rssMb`. */
  | { kind: 'download'; seconds: number; rssMb: number }
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
  /** The request (repeated as is unless `vary` is given). */
  request(ctx: BenchContext): HttpRequestSpec;
  /** The i-th request, for scenarios whose requests must differ (writes). */
  vary?(ctx: BenchContext, i: number): HttpRequestSpec;
  /** Time the SQL this request issues directly through mysql2 (reads only: the floor replays it). */
  floor: boolean;
  /** Opt-in scenarios run only when named with --only (e.g. writes that change the data). */
  optIn?: boolean;
}

export interface ExportScenario {
  kind: 'export';
  name: string;
  title: string;
  target: Target;
  format: 'csv' | 'xlsx' | 'json';
  path(ctx: BenchContext): string;
  optIn?: boolean;
}

export type Scenario = HttpScenario | ExportScenario;

const get = (path: string): HttpRequestSpec => ({ method: 'GET', path });
const qs = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(
      ([k, v]) => `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(v))}`,
    )
    .join('&');

export const SCENARIOS: Scenario[] = [
  {
    kind: 'http',
    name: 'list-default',
    title: 'GET /users, default page',
    target: { kind: 'p50', ms: 50 },
    floor: true,
    request: () => get('/api/users'),
  },
  {
    kind: 'http',
    name: 'list-filtered',
    title: 'GET /users, is_active + role + created range',
    target: { kind: 'floor', ratio: 1.3 },
    floor: true,
    request: (ctx) =>
      get(
        `/api/users?${qs({
          'filters[is_active]': 'active',
          'filters[role_id][]': ctx.roleIds.get('manager') ?? 2,
          'filters[created_between][from]': '2025-01-01',
          'filters[created_between][to]': '2025-12-31',
        })}`,
      ),
  },
  {
    kind: 'http',
    name: 'list-search',
    title: 'GET /users?q=grace.hopper',
    target: { kind: 'floor', ratio: 1.3 },
    floor: true,
    request: () => get(`/api/users?${qs({ q: 'grace.hopper' })}`),
  },
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
  {
    kind: 'export',
    name: 'export-csv',
    title: 'GET /users/export, CSV, all rows',
    target: { kind: 'download', seconds: 8, rssMb: 250 },
    format: 'csv',
    path: () => '/api/users/export?format=csv',
  },
  {
    kind: 'export',
    name: 'export-xlsx',
    title: 'GET /users/export, XLSX, all rows',
    target: { kind: 'download', seconds: 40, rssMb: 250 },
    format: 'xlsx',
    path: () => '/api/users/export?format=xlsx',
  },
  // Write scenarios (the write-side issue): opt-in with --only, they change the data they touch
  // (each flips is_active of demo users, alternating, so every request really writes).
  {
    kind: 'http',
    name: 'bulk-set-active',
    title: 'POST /users/bulk setActive, 1 000 ids',
    target: { kind: 'none' },
    floor: false,
    optIn: true,
    request: (ctx) => bulkSetActive(ctx, 0),
    vary: bulkSetActive,
  },
  {
    kind: 'http',
    name: 'patch-active',
    title: 'PATCH /users/{id}/active',
    target: { kind: 'none' },
    floor: false,
    optIn: true,
    request: (ctx) => patchActive(ctx, 0),
    vary: patchActive,
  },
];

function bulkSetActive(ctx: BenchContext, i: number): HttpRequestSpec {
  const size = 1_000;
  const span = Math.max(1, ctx.demoIdRange.max - ctx.demoIdRange.min + 1 - size);
  const first = ctx.demoIdRange.min + ((Math.floor(i / 2) * size) % span);
  const ids = Array.from({ length: size }, (_, k) => first + k);
  return { method: 'POST', path: '/api/users/bulk', body: { operation: 'setActive', ids, active: i % 2 === 1 } };
}

function patchActive(ctx: BenchContext, i: number): HttpRequestSpec {
  const span = ctx.demoIdRange.max - ctx.demoIdRange.min + 1;
  const id = ctx.demoIdRange.min + (Math.floor(i / 2) % span);
  return { method: 'PATCH', path: `/api/users/${id}/active`, body: { active: i % 2 === 1 } };
}
