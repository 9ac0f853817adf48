import { BENCH_ATTRIBUTES } from './attributes-seed.js';
import { get, qs } from './list-scenarios.js';
import type { BenchContext, ExportScenario, HttpScenario } from './scenarios.js';

/**
 * Issue 38's performance table, on the six attributes `--attributes` fills for every demo user
 * (bench/attributes-seed.ts): filter, filter + status + role sorted by an attribute, a deep page
 * sorted by an attribute, and a CSV export carrying the six columns against the one without.
 * They run only when the attributes are seeded.
 */

function attributeList(
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
    attributes: true,
    request: (ctx) => get(`/api/users?${qs(params(ctx))}`),
  };
}

export function attributeListScenarios(): HttpScenario[] {
  return [
    attributeList('attr-department', 'department = Sales (≈ 5 %), default page', 50, () => ({
      'filters[attributes][department]': 'Sales',
    })),
    attributeList('attr-filtered-sorted', 'department = Sales + active + role, by start_date, page 1', 100, (ctx) => ({
      'filters[attributes][department]': 'Sales',
      'filters[is_active]': 'active',
      'filters[role_id][]': ctx.roleIds.get('manager') ?? 0,
      sort: 'attributes.start_date',
    })),
    // One holder: its page is read by sorting the candidates, not by walking the sort's index.
    attributeList('attr-rare-sorted', 'employee_number = one user, by start_date, page 1', 100, (ctx) => ({
      'filters[attributes][employee_number]': `E${String(Math.ceil((ctx.demoIdRange.min + ctx.demoIdRange.max) / 2)).padStart(8, '0')}`,
      sort: 'attributes.start_date',
    })),
    attributeList('attr-sort-p1000', 'by start_date, page 1 000', 150, () => ({
      sort: 'attributes.start_date',
      page: 1_000,
    })),
    attributeList('attr-sort-desc-p1000', 'by level descending, page 1 000', 150, () => ({
      sort: 'attributes.level',
      dir: 'desc',
      page: 1_000,
    })),
  ];
}

const ATTRIBUTE_COLUMNS = BENCH_ATTRIBUTES.map((a) => `columns[]=attributes.${a.key}`).join('&');
const USER_COLUMNS = ['id', 'name', 'email', 'roles_count', 'roles', 'is_active', 'created_at']
  .map((c) => `columns[]=${c}`)
  .join('&');

export function attributeExportScenarios(): ExportScenario[] {
  return [
    {
      kind: 'export',
      name: 'export-csv-attributes',
      title: 'GET /users/export, CSV, all rows, the user columns + 6 attribute columns',
      target: { kind: 'relative', of: 'export-csv', ratio: 1.5 },
      format: 'csv',
      attributes: true,
      path: () => `/api/users/export?format=csv&${USER_COLUMNS}&${ATTRIBUTE_COLUMNS}`,
    },
  ];
}
