import type { UserListRow } from '@app/contracts';
import { Button, EmptyState, type TableDensity } from '@app/ui';
import type { Table } from '@tanstack/react-table';
import { SearchX, Trash2, Users } from 'lucide-react';
import { useMessages } from '../../../i18n/messages';
import { type ListQueryState, ResourceTable } from '../../../lib/resource-list/resource-table';
import type { UsersListController } from './use-users-list-state';
import { isFiltered, PER_PAGE_OPTIONS } from './users-list-state';

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

/** The users table in the kit's shell, with the users' empty states. */
export function UsersTable({ table, query, list, density }: UsersTableProps) {
  const m = useMessages();
  const t = m.usersList;
  return (
    <ResourceTable
      table={table}
      query={query}
      list={list}
      density={density}
      perPageOptions={PER_PAGE_OPTIONS}
      empty={<UsersEmpty list={list} />}
      strings={{
        label: t.table.label,
        loading: t.table.loading,
        errorTitle: t.error.title,
        retry: t.error.retry,
        pagination: t.pagination,
      }}
    />
  );
}
