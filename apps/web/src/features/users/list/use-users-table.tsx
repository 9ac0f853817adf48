import type { UserListRow, UsersSort } from '@app/contracts';
import { getCoreRowModel, type SortingState, useReactTable } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useMessages } from '../../../i18n/messages';
import type { TablePreferences } from './use-table-preferences';
import type { UsersListController } from './use-users-list-state';
import type { Selection } from '../../../lib/resource-list/use-selection';
import { usersColumns } from './users-columns';
import { type RowActionRequest, UsersRowActions } from './users-row-actions';

const NO_ROWS: UserListRow[] = [];

export interface UseUsersTableOptions {
  rows: UserListRow[] | undefined;
  pageCount: number;
  list: UsersListController;
  prefs: TablePreferences;
  selection: Selection;
  selectable: boolean;
  onRowAction: (request: RowActionRequest) => void;
}

/**
 * The TanStack table over one server page. Sorting, paging and selection are manual: the URL
 * holds sort and page, the selection hook holds the selected ids across pages.
 */
export function useUsersTable({
  rows,
  pageCount,
  list,
  prefs,
  selection,
  selectable,
  onRowAction,
}: UseUsersTableOptions) {
  const m = useMessages();
  const columns = useMemo(
    () =>
      usersColumns({
        m,
        selectable,
        renderActions: (row) => <UsersRowActions row={row} onRequest={onRowAction} />,
      }),
    [m, selectable, onRowAction],
  );
  const { sort, dir } = list.state;
  const sorting: SortingState = sort ? [{ id: sort, desc: dir === 'desc' }] : [];

  return useReactTable({
    data: rows ?? NO_ROWS,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(row.id),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    enableMultiSort: false,
    sortDescFirst: false,
    pageCount,
    enableRowSelection: selectable,
    state: { sorting, columnVisibility: prefs.visibility, rowSelection: selection.rows },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      list.setSort(first ? (first.id as UsersSort) : null, first?.desc ? 'desc' : 'asc');
    },
    onRowSelectionChange: selection.onRowSelectionChange,
  });
}
