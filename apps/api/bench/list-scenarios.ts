import { demoUser } from '../src/seed/demo-data.js';
import type { BenchContext, HttpRequestSpec, HttpScenario, Target } from './scenarios.js';

// The GET /users scenarios: search and filter, alone and sorted, on the first and a deep page.

export const get = (path: string): HttpRequestSpec => ({ method: 'GET', path });
export const qs = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(
      ([k, v]) => `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(v))}`,
    )
    .join('&');

/** A GET /users scenario: its query string's parameters, built from the seeded data. */
function listScenario(
  name: string,
  title: string,
  ms: number,
  params: (ctx: BenchContext) => Record<string, string | number>,
): HttpScenario {
  return {
    kind: 'http',
    name,
    title,
    target: { kind: 'p50', ms },
    floor: true,
    naive: true,
    request: (ctx) => get(`/api/users?${qs(params(ctx))}`),
  };
}

/** Issue 24: a search's slowest requests at most 3 × its median. */
const TAIL: Target = { kind: 'tail', ratio: 3 };

const role = (ctx: BenchContext, name: string) => ctx.roleIds.get(name) ?? 0;
const month = { 'filters[created_between][from]': '2025-06-01', 'filters[created_between][to]': '2025-06-30' };
const year = { 'filters[created_between][from]': '2025-01-01', 'filters[created_between][to]': '2025-12-31' };
/** The demo user in the middle of the seeded ones: their e-mail is searched whole. */
export const middleEmail = (ctx: Pick<BenchContext, 'users'>) => demoUser(Math.max(1, Math.ceil(ctx.users / 2))).email;
const allThree = (ctx: BenchContext) => ({
  'filters[is_active]': 'active',
  'filters[role_id][]': role(ctx, 'manager'),
  ...year,
});
/** Page 1 000 of 10 (offset 9 990) sorted by name. */
const byName1000 = { sort: 'name', dir: 'asc', page: 1_000 };

/**
 * Search and filter scenarios (issue 11): each term and filter alone, then sorted by name on the
 * first and the 1 000th page. Targets: search 50 ms, filters 100 ms, sorted 150 ms (p50).
 */
export function searchAndFilterScenarios(): HttpScenario[] {
  return [
    listScenario('search-email', 'q = a whole e-mail', 50, (ctx) => ({ q: middleEmail(ctx) })),
    {
      ...listScenario('search-prefix', 'q = grace.ho (an e-mail prefix)', 50, () => ({ q: 'grace.ho' })),
      also: [TAIL],
    },
    listScenario('search-surname', 'q = hopper (a surname)', 50, () => ({ q: 'hopper' })),
    listScenario('search-infix', 'q = opp (3-character infix)', 50, () => ({ q: 'opp' })),
    listScenario('search-none', 'q = a term nothing holds', 50, () => ({ q: 'xylophone' })),
    listScenario('filter-active', 'is_active = active', 100, () => ({ 'filters[is_active]': 'active' })),
    listScenario('filter-role-common', 'role = viewer (common)', 100, (ctx) => ({
      'filters[role_id][]': role(ctx, 'viewer'),
    })),
    listScenario('filter-role-rare', 'role = admin (rare)', 100, (ctx) => ({
      'filters[role_id][]': role(ctx, 'admin'),
    })),
    listScenario('filter-month', 'created in a month', 100, () => month),
    listScenario('filter-year', 'created in a year', 100, () => year),
    listScenario('list-filtered', 'is_active + role + created in a year', 100, allThree),
    listScenario('filter-trashed', 'trashed = only', 100, () => ({ 'filters[trashed]': 'only' })),
    listScenario('search-surname-name-p1', 'q = hopper, by name, page 1', 150, () => ({ q: 'hopper', sort: 'name' })),
    listScenario('search-surname-name-p1000', 'q = hopper, by name, page 1 000', 150, () => ({
      q: 'hopper',
      ...byName1000,
    })),
    listScenario('search-infix-name-p1000', 'q = opp, by name, page 1 000', 150, () => ({ q: 'opp', ...byName1000 })),
    listScenario('filtered-name-p1', 'is_active + role + year, by name, page 1', 150, (ctx) => ({
      ...allThree(ctx),
      sort: 'name',
    })),
    listScenario('filtered-name-p1000', 'is_active + role + year, by name, page 1 000', 150, (ctx) => ({
      ...allThree(ctx),
      ...byName1000,
    })),
    listScenario('role-rare-name-p1000', 'role = admin, by name, page 1 000', 150, (ctx) => ({
      'filters[role_id][]': role(ctx, 'admin'),
      ...byName1000,
    })),
    listScenario('month-name-p1000', 'created in a month, by name, page 1 000', 150, () => ({
      ...month,
      ...byName1000,
    })),
    listScenario('active-name-p1000', 'is_active = active, by name, page 1 000', 150, () => ({
      'filters[is_active]': 'active',
      ...byName1000,
    })),
  ];
}
