import { ROLE_COLUMN_KEYS, type RoleColumnKey, type RoleListRow, rolesListQuery } from '@app/contracts';
import { DataTableColumnHeader } from '@app/ui';
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../i18n/dates';
import type { Messages } from '../../i18n/messages';
import { roleMembersHref } from '../../lib/resource-list/list-links';

const SORTABLE = new Set<string>(rolesListQuery.sorts);

interface CellOptions {
  m: Messages;
  /** Member counts link to the users list only for a viewer who may open it. */
  canOpenUsers: boolean;
}

/** The table's columns: the export's, less the granted names, which a list row carries only as a count. */
type TableColumnKey = Exclude<RoleColumnKey, 'permissions'>;
type CellRenderer = (row: RoleListRow, options: CellOptions) => ReactNode;

// One renderer per column of the contract's column set: a column added there fails to compile here.
const CELLS: Record<TableColumnKey, { render: CellRenderer; className?: string; skeleton: string }> = {
  id: {
    render: (row) => <span className="text-muted-foreground tabular-nums">{row.id}</span>,
    className: 'w-16',
    skeleton: 'w-8',
  },
  name: {
    render: (row) => (
      <Link
        to={`/roles/${row.id}`}
        className="block max-w-56 truncate rounded-sm font-medium text-foreground capitalize underline-offset-4 hover:underline"
      >
        {row.name}
      </Link>
    ),
    className: 'min-w-36',
    skeleton: 'w-28',
  },
  description: {
    render: (row, { m }) =>
      row.description ? (
        <span className="block max-w-sm truncate text-muted-foreground" title={row.description}>
          {row.description}
        </span>
      ) : (
        <span className="text-muted-foreground">{m.roles.noDescription}</span>
      ),
    skeleton: 'w-48',
  },
  permissions_count: {
    render: (row) => <span className="tabular-nums">{row.permissions_count}</span>,
    className: 'w-28',
    skeleton: 'w-6',
  },
  users_count: {
    render: (row, { m, canOpenUsers }) =>
      canOpenUsers ? (
        <Link
          to={roleMembersHref(row.id)}
          aria-label={m.roles.members(row.users_count, row.name)}
          className="rounded-sm font-medium tabular-nums underline underline-offset-4 hover:text-foreground"
        >
          {m.roles.count(row.users_count)}
        </Link>
      ) : (
        <span className="tabular-nums">{m.roles.count(row.users_count)}</span>
      ),
    className: 'w-24',
    skeleton: 'w-8',
  },
  created_at: {
    render: (row, { m }) => (
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

const TABLE_COLUMN_KEYS = ROLE_COLUMN_KEYS.filter((key): key is TableColumnKey => key !== 'permissions');

/** The roles table's columns, in the contract's order; the name links to the role. */
export function rolesColumns(options: CellOptions): ColumnDef<RoleListRow>[] {
  const labels = options.m.roles.columns;
  return TABLE_COLUMN_KEYS.map((key) => ({
    id: key,
    accessorKey: key,
    enableSorting: SORTABLE.has(key),
    enableHiding: false,
    header: ({ column }) => <DataTableColumnHeader column={column} title={labels[key]} />,
    cell: ({ row }) => CELLS[key].render(row.original, options),
    meta: {
      className: CELLS[key].className,
      skeletonClassName: CELLS[key].skeleton,
      label: labels[key],
      primary: key === 'name',
    },
  }));
}
