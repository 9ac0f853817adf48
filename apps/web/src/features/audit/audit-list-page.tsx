import { AUDIT_COLUMN_KEYS, type AuditRow, type AuditSort } from '@app/contracts';
import { Button, Card, EmptyState, PageHeader } from '@app/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ScrollText, SearchX } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { useMessages } from '../../i18n/messages';
import { isFiltered } from '../../lib/resource-list/list-state';
import { ResourceTable } from '../../lib/resource-list/resource-table';
import { ResourceToolbar } from '../../lib/resource-list/resource-toolbar';
import { useListState } from '../../lib/resource-list/use-list-state';
import { useResourceTable } from '../../lib/resource-list/use-resource-table';
import { useTablePreferences } from '../../lib/resource-list/use-table-preferences';
import { toListInput } from '../../lib/resource-list/list-state';
import { useTRPC } from '../../lib/trpc';
import { useCan } from '../auth/use-session';
import { AUDIT_LOCKED_COLUMNS, auditColumns } from './audit-columns';
import { auditFilterFields } from './audit-filter-fields';
import { AUDIT_LIST_CODEC, AUDIT_PER_PAGE_OPTIONS, type AuditListFilters } from './audit-list-state';

/** Names of the users the pages so far have shown, so a chip says "By Ada" rather than an id. */
function useSeenNames(rows: AuditRow[] | undefined): ReadonlyMap<number, string> {
  const names = useRef(new Map<number, string>());
  for (const row of rows ?? []) {
    if (row.actor_id && row.actor_name) names.current.set(row.actor_id, row.actor_name);
    for (const [id, name] of Object.entries(row.target_names)) names.current.set(Number(id), name);
  }
  return names.current;
}

/** `/audit`: every recorded event, searchable, filterable and exportable, newest first. */
export function AuditListPage() {
  const m = useMessages();
  const t = m.audit;
  const trpc = useTRPC();
  const can = useCan();
  const list = useListState(AUDIT_LIST_CODEC);
  const { state } = list;
  const prefs = useTablePreferences({
    prefix: 'audit_table',
    columns: AUDIT_COLUMN_KEYS,
    locked: AUDIT_LOCKED_COLUMNS,
  });
  const query = useQuery(trpc.audit.list.queryOptions(toListInput(state), { placeholderData: keepPreviousData }));
  const data = query.data;
  const names = useSeenNames(data?.rows);
  const canOpenUsers = can['users.view'] === true;
  const columns = useMemo(() => auditColumns({ m, canOpenUsers }), [m, canOpenUsers]);
  const table = useResourceTable<AuditRow, AuditSort, AuditListFilters>({
    rows: data?.rows,
    pageCount: data?.meta.pageCount ?? 0,
    columns,
    list,
    prefs,
  });
  const fields = auditFilterFields(m, names);

  // A page that no longer exists (pruned events, a stale link): go to the last one.
  const pageCount = data?.meta.pageCount ?? 0;
  useEffect(() => {
    if (!query.isPlaceholderData && pageCount > 0 && state.page > pageCount) list.setPage(pageCount);
  }, [query.isPlaceholderData, pageCount, state.page, list.setPage]);

  const empty = isFiltered(state) ? (
    <EmptyState
      icon={<SearchX aria-hidden="true" />}
      title={t.empty.noMatchTitle}
      description={t.empty.noMatchBody}
      action={
        <Button variant="secondary" size="sm" onClick={list.clearFilters}>
          {t.empty.clearFilters}
        </Button>
      }
    />
  ) : (
    <EmptyState
      icon={<ScrollText aria-hidden="true" />}
      title={t.empty.noEventsTitle}
      description={t.empty.noEventsBody}
    />
  );

  return (
    <div>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader title={t.title} description={t.subtitle} />
      <Card className="mt-6 overflow-hidden">
        <ResourceToolbar
          list={list}
          search={t.search}
          filters={{
            fields,
            chipFields: fields,
            strings: {
              button: t.filters.button,
              buttonCount: t.filters.buttonCount,
              heading: t.filters.heading,
              apply: t.filters.apply,
              reset: t.filters.reset,
            },
          }}
          chips={{
            label: t.filters.chipsLabel,
            search: t.filters.chip.search,
            removeChip: t.filters.removeChip,
            clearAll: t.filters.clearAll,
          }}
          exporting={{
            path: '/api/audit/export',
            strings: t.export,
            total: data?.meta.total,
            totalExact: data?.meta.totalExact,
          }}
          columns={AUDIT_COLUMN_KEYS.map((key) => ({
            key,
            label: t.columns[key],
            locked: AUDIT_LOCKED_COLUMNS.has(key),
          }))}
          prefs={prefs}
          view={t.view}
        />
        <ResourceTable
          table={table}
          query={query}
          list={list}
          density={prefs.density}
          perPageOptions={AUDIT_PER_PAGE_OPTIONS}
          empty={empty}
          strings={{
            label: t.table.label,
            loading: t.table.loading,
            errorTitle: t.error.title,
            retry: t.error.retry,
            pagination: t.pagination,
          }}
        />
      </Card>
    </div>
  );
}
