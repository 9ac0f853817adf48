import { USER_COLUMNS, type UserColumnKey, type UserListRow, usersListQuery } from '@app/contracts';
import { Badge, DataTableColumnHeader, SelectionCheckbox } from '@app/ui';
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../../i18n/dates';
import type { Messages } from '../../../i18n/messages';
import { RoleBadges } from './role-badges';
import { LOCKED_COLUMNS } from './users-list-state';

const SORTABLE = new Set<string>(usersListQuery.sorts);

type CellRenderer = (row: UserListRow, m: Messages) => ReactNode;

// One renderer per column of the contract's column set: a column added there fails to compile here.
const CELLS: Record<UserColumnKey, { render: CellRenderer; className?: string; skeleton: string }> = {
  id: {
    render: (row) => <span className="text-muted-foreground tabular-nums">{row.id}</span>,
    className: 'w-16',
    skeleton: 'w-8',
  },
  name: {
    render: (row) => (
      <Link
        to={`/users/${row.id}`}
        className="block max-w-56 truncate rounded-sm font-medium text-foreground underline-offset-4 hover:underline"
      >
        {row.name}
      </Link>
    ),
    className: 'min-w-40',
    skeleton: 'w-32',
  },
  email: {
    render: (row) => <span className="block max-w-xs truncate text-muted-foreground">{row.email}</span>,
    skeleton: 'w-44',
  },
  roles_count: {
    render: (row) => <span className="tabular-nums">{row.roles_count}</span>,
    className: 'w-20',
    skeleton: 'w-6',
  },
  roles: {
    render: (row) => <RoleBadges names={row.roles} />,
    className: 'min-w-32',
    skeleton: 'w-24',
  },
  is_active: {
    render: (row, m) =>
      row.deleted_at ? (
        <Badge tone="danger" dot title={m.usersList.table.deletedOn(formatDate(row.deleted_at, 'day', m.app.locale))}>
          {m.usersList.table.deleted}
        </Badge>
      ) : row.is_active ? (
        <Badge tone="success" dot>
          {m.usersList.table.active}
        </Badge>
      ) : (
        <Badge tone="neutral" dot>
          {m.usersList.table.inactive}
        </Badge>
      ),
    className: 'w-28',
    skeleton: 'w-16',
  },
  created_at: {
    render: (row, m) => (
      <time
        dateTime={row.created_at}
        title={formatDate(row.created_at, 'full', m.app.locale)}
        className="whitespace-nowrap text-muted-foreground tabular-nums"
      >
        {formatDate(row.created_at, 'day', m.app.locale)}
      </time>
    ),
    className: 'w-32',
    skeleton: 'w-20',
  },
};

export interface UsersColumnsOptions {
  m: Messages;
  /** The row menu; absent when the caller may do nothing to a row. */
  renderActions: (row: UserListRow) => ReactNode;
}

/** The table's columns: selection (shown when the view offers it), the contract's column set in its order, row actions. */
export function usersColumns({ m, renderActions }: UsersColumnsOptions): ColumnDef<UserListRow>[] {
  const labels = m.usersList.columns;
  const data: ColumnDef<UserListRow>[] = USER_COLUMNS.map(({ key }) => ({
    id: key,
    accessorKey: key,
    enableSorting: SORTABLE.has(key),
    enableHiding: !LOCKED_COLUMNS.has(key),
    header: ({ column }) => <DataTableColumnHeader column={column} title={labels[key]} />,
    cell: ({ row }) => CELLS[key].render(row.original, m),
    meta: {
      className: CELLS[key].className,
      skeletonClassName: CELLS[key].skeleton,
      label: labels[key],
      primary: key === 'name',
    },
  }));

  const select: ColumnDef<UserListRow> = {
    id: 'select',
    enableSorting: false,
    enableHiding: false,
    header: ({ table }) => (
      <SelectionCheckbox
        aria-label={m.usersList.table.selectPage}
        checked={table.getIsAllPageRowsSelected() ? true : table.getIsSomePageRowsSelected() ? 'indeterminate' : false}
        disabled={table.getRowModel().rows.length === 0}
        onCheckedChange={(checked) => table.toggleAllPageRowsSelected(checked)}
      />
    ),
    cell: ({ row }) => (
      <SelectionCheckbox
        aria-label={m.usersList.table.selectRow(row.original.name)}
        checked={row.getIsSelected()}
        onCheckedChange={(checked) => row.toggleSelected(checked)}
      />
    ),
    meta: { className: 'w-10 pr-0 pl-4', skeletonClassName: 'w-4' },
  };

  const actions: ColumnDef<UserListRow> = {
    id: 'actions',
    enableSorting: false,
    enableHiding: false,
    header: () => <span className="sr-only">{labels.actions}</span>,
    cell: ({ row }) => <div className="flex justify-end">{renderActions(row.original)}</div>,
    meta: { className: 'w-12 pr-3 text-right', skeletonClassName: 'ml-auto w-6' },
  };

  return [select, ...data, actions];
}
