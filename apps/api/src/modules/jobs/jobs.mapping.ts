import type { JobsListQuery } from '@app/contracts';
import { literal } from 'sequelize';
import { byKind, type FilterHandler, type ResourceMapping } from '../../query/list-query-engine.js';

/**
 * `dry_run = 1|0`, written out: the Job model declares only what the runner does not write by
 * hand, and both engines keep the flag as 1 or 0.
 */
const byDryRun: FilterHandler = (value, sql) =>
  value.kind === 'exact'
    ? literal(`${sql.quote('Job')}.${sql.quote('dry_run')} = ${value.value === true ? 1 : 0}`)
    : null;

/** How the jobs list query (jobsListQuery) maps onto `jobs`. */
export const jobsMapping: ResourceMapping<'id' | 'created_at', 'status' | 'kind' | 'dry_run'> = {
  alias: 'Job',
  search: ['kind', 'operation', 'status'],
  sorts: { id: 'id', created_at: 'created_at' },
  filters: {
    status: byKind('status'),
    kind: byKind('kind'),
    dry_run: byDryRun,
  },
};

/**
 * The list query with its dry-run filter in force: a dry run changes nobody, so the list shows
 * real runs unless dry runs are asked for (`filters[dry_run]=true`); there is no view of both.
 */
export function withDryRunFilter(query: JobsListQuery): JobsListQuery {
  if (query.filters.dry_run) return query;
  return { ...query, filters: { ...query.filters, dry_run: { kind: 'exact', value: false } } };
}
