import { byKind, type ResourceMapping } from '../../query/list-query-engine.js';

/** How the jobs list query (jobsListQuery) maps onto `jobs`. */
export const jobsMapping: ResourceMapping<'id' | 'created_at', 'status' | 'kind'> = {
  alias: 'Job',
  search: ['kind', 'operation', 'status'],
  sorts: { id: 'id', created_at: 'created_at' },
  filters: {
    status: byKind('status'),
    kind: byKind('kind'),
  },
};
