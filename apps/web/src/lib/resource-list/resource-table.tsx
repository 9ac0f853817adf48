import { DataTable, ErrorState, Pagination, Skeleton, type TableDensity } from '@app/ui';
import type { Table } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import type { ListStrings } from '../../i18n/list-strings';
import { useMessages } from '../../i18n/messages';
import { apiErrorMessage } from '../api-error';
import './column-meta';
import { ResourceCards } from './resource-cards';
import type { ListController } from './use-list-state';
import { useWideScreen } from './use-wide-screen';

/** What the table needs of a resource's list query. */
export interface ListQueryState {
  data: { meta: { total: number; totalExact: boolean; pageCount: number } } | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

export interface ResourceTableProps<Row, S extends string, F extends object> {
  table: Table<Row>;
  query: ListQueryState;
  list: ListController<S, F>;
  density: TableDensity;
  perPageOptions: readonly number[];
  /** Shown when the page has no rows (no data yet, nothing matches, an empty trash…). */
  empty: ReactNode;
  strings: Pick<ListStrings, 'table' | 'error' | 'pagination' | 'view'>;
}

/**
 * A resource's rows, its pagination and its loading, empty and error states: a table from `sm`
 * up, stacked cards below it (a phone), so no column's information or row action is off-screen.
 */
export function ResourceTable<Row, S extends string, F extends object>({
  table,
  query,
  list,
  density,
  perPageOptions,
  empty,
  strings: t,
}: ResourceTableProps<Row, S, F>) {
  const m = useMessages();
  const wide = useWideScreen();
  const { state } = list;

  if (query.isError && !query.data) {
    return (
      <ErrorState
        className="py-14"
        title={t.error.title}
        message={apiErrorMessage(query.error, m)}
        retryLabel={t.error.retry}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }

  const meta = query.data?.meta;
  const rows = {
    table,
    label: t.table.label,
    loading: query.isPending,
    loadingLabel: t.table.loading,
    skeletonRows: Math.min(state.perPage, 10),
    stale: query.isPlaceholderData,
    empty,
  };
  return (
    <>
      {wide ? <DataTable {...rows} density={density} /> : <ResourceCards {...rows} sortStrings={t.view} />}
      {meta?.total === 0 ? null : (
        <div className="border-t border-border px-3 py-3 sm:px-4">
          {meta ? (
            <Pagination
              page={state.page}
              pageCount={meta.pageCount}
              perPage={state.perPage}
              total={meta.total}
              totalExact={meta.totalExact}
              perPageOptions={perPageOptions}
              onPageChange={list.setPage}
              onPerPageChange={list.setPerPage}
              labels={t.pagination}
            />
          ) : (
            <div className="flex h-8 items-center justify-between">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-8 w-56" />
            </div>
          )}
        </div>
      )}
    </>
  );
}
