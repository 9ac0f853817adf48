import { DataTable, ErrorState, Pagination, type PaginationLabels, Skeleton, type TableDensity } from '@app/ui';
import type { Table } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { useMessages } from '../../i18n/messages';
import { apiErrorMessage } from '../api-error';
import type { ListController } from './use-list-state';

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

/** A resource's words for its table. */
export interface ResourceTableStrings {
  label: string;
  loading: string;
  errorTitle: string;
  retry: string;
  pagination: PaginationLabels;
}

export interface ResourceTableProps<Row, S extends string, F extends object> {
  table: Table<Row>;
  query: ListQueryState;
  list: ListController<S, F>;
  density: TableDensity;
  perPageOptions: readonly number[];
  /** Shown when the page has no rows (no data yet, nothing matches, an empty trash…). */
  empty: ReactNode;
  strings: ResourceTableStrings;
}

/** A resource's table, its pagination and its loading, empty and error states. */
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
  const { state } = list;

  if (query.isError && !query.data) {
    return (
      <ErrorState
        className="py-14"
        title={t.errorTitle}
        message={apiErrorMessage(query.error, m)}
        retryLabel={t.retry}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }

  const meta = query.data?.meta;
  return (
    <>
      <DataTable
        table={table}
        label={t.label}
        density={density}
        loading={query.isPending}
        loadingLabel={t.loading}
        skeletonRows={Math.min(state.perPage, 10)}
        stale={query.isPlaceholderData}
        empty={empty}
      />
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
