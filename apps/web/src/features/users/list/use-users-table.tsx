import type { UserListRow, UsersSort } from '@app/contracts';
import { useMemo } from 'react';
import { useMessages } from '../../../i18n/messages';
import { useResourceTable } from '../../../lib/resource-list/use-resource-table';
import type { Selection } from '../../../lib/resource-list/use-selection';
import type { TablePreferences } from './use-table-preferences';
import type { UsersListController } from './use-users-list-state';
import { usersColumns } from './users-columns';
import type { UsersListFilters } from './users-list-state';
import { type RowActionRequest, UsersRowActions } from './users-row-actions';

export interface UseUsersTableOptions {
  rows: UserListRow[] | undefined;
  pageCount: number;
  list: UsersListController;
  prefs: TablePreferences;
  selection: Selection;
  selectable: boolean;
  onRowAction: (request: RowActionRequest) => void;
}

/** The users table: the kit's table with the users' columns and row menu. */
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
  return useResourceTable<UserListRow, UsersSort, UsersListFilters>({
    rows,
    pageCount,
    columns,
    list,
    prefs,
    ...(selectable ? { selection } : {}),
  });
}
