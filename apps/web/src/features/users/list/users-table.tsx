import type { UserListRow } from '@app/contracts';
import { Button, DataTable, EmptyState, ErrorState, Pagination, Skeleton, type TableDensity } from '@app/ui';
import type { Table } from '@tanstack/react-table';
import { SearchX, Trash2, Users } from 'lucide-react';
import { useMessages } from '../../../i18n/messages';
import { apiErrorMessage } from '../../../lib/api-error';
import type { RouterOutputs } from '../../../lib/api-types';
import type { UsersListController } from './use-users-list-state';
import { isFiltered, PER_PAGE_OPTIONS } from './users-list-state';

/** What the table needs of the list query. */
export interface ListQueryState {
  data: RouterOutputs['users']['list'] | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

function UsersEmpty({ list }: { list: UsersListController }) {
  const m = useMessages();
  const t = m.usersList.empty;
  const { state } = list;
  const onlyTrash = state.filters.trashed === 'only' && state.q === '' && Object.keys(state.filters).length === 1;
  if (onlyTrash)
    return <EmptyState icon={<Trash2 aria-hidden="true" />} title={t.trashTitle} description={t.trashBody} />;
  if (!isFiltered(state))
    return <EmptyState icon={<Users aria-hidden="true" />} title={t.noUsersTitle} description={t.noUsersBody} />;
  return (
    <EmptyState
      icon={<SearchX aria-hidden="true" />}
      title={t.noMatchTitle}
      description={t.noMatchBody}
      action={
        <Button variant="secondary" size="sm" onClick={list.clearFilters}>
          {t.clearFilters}
        </Button>
      }
    />
  );
}

export interface UsersTableProps {
  table: Table<UserListRow>;
  query: ListQueryState;
  list: UsersListController;
  density: TableDensity;
}

/** The table, its pagination and its loading, empty and error states. */
export function UsersTable({ table, query, list, density }: UsersTableProps) {
  const m = useMessages();
  const t = m.usersList;
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
  return (
    <>
      <DataTable
        table={table}
        label={t.table.label}
        density={density}
        loading={query.isPending}
        loadingLabel={t.table.loading}
        skeletonRows={Math.min(state.perPage, 10)}
        stale={query.isPlaceholderData}
        empty={<UsersEmpty list={list} />}
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
              perPageOptions={PER_PAGE_OPTIONS}
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
