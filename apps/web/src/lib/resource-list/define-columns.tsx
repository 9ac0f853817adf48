import { DataTableColumnHeader, SelectionCheckbox } from '@app/ui';
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { formatDate } from '../../i18n/dates';
import { ACTIONS_COLUMN, SELECT_COLUMN } from './column-meta';

/** How one column draws its cells. */
export interface CellSpec<Row> {
  render: (row: Row) => ReactNode;
  /** Width and padding of the column's header and cells. */
  className?: string;
  /** Width of the loading placeholder. */
  skeleton?: string;
}

export interface ColumnsDeclaration<Row, K extends string> {
  /** The columns in display order: the contract's column set, or the resource's own keys. */
  keys: readonly K[];
  labels: Readonly<Record<K, string>>;
  /** One cell per key: a column added to the set and not drawn here does not compile. */
  cells: { readonly [P in K]: CellSpec<Row> };
  /** The record's link: it heads a phone card. */
  primary: K;
  /** The contract's sorts: these headers sort the list (on the server). */
  sortable?: readonly string[];
  /** Columns the viewer may not hide (the link to the record). */
  locked?: ReadonlySet<K>;
  /** A checkbox per row and one for the page, before the data: the list's selection. */
  select?: { page: string; row: (row: Row) => string };
  /** Columns of the resource's own making, after the declared ones (a custom attribute's). */
  extra?: ColumnDef<Row>[];
  /** The row's menu, after the data (in a card's corner on a phone). */
  actions?: { label: string; render: (row: Row) => ReactNode };
}

/**
 * A list's TanStack columns from one declaration: every list builds them the same way, so the
 * headers, the phone card's labels (`meta.label`), the column menu and the selection behave alike.
 */
export function defineColumns<Row, K extends string>(d: ColumnsDeclaration<Row, K>): ColumnDef<Row>[] {
  const sortable = new Set<string>(d.sortable ?? []);
  const data = d.keys.map(
    (key): ColumnDef<Row> => ({
      id: key,
      // TanStack sorts only a column with an accessor; the server sorts, so the value is never read.
      ...(sortable.has(key) ? { accessorFn: () => key } : {}),
      enableSorting: sortable.has(key),
      enableHiding: !d.locked?.has(key),
      header: ({ column }) => <DataTableColumnHeader column={column} title={d.labels[key]} />,
      cell: ({ row }) => d.cells[key].render(row.original),
      meta: {
        className: d.cells[key].className,
        skeletonClassName: d.cells[key].skeleton ?? 'w-20',
        label: d.labels[key],
        primary: key === d.primary,
      },
    }),
  );
  const { select, actions } = d;
  return [
    ...(select
      ? [
          {
            id: SELECT_COLUMN,
            enableSorting: false,
            enableHiding: false,
            header: ({ table }) => (
              <SelectionCheckbox
                aria-label={select.page}
                checked={
                  table.getIsAllPageRowsSelected() ? true : table.getIsSomePageRowsSelected() ? 'indeterminate' : false
                }
                disabled={table.getRowModel().rows.length === 0}
                onCheckedChange={(checked) => table.toggleAllPageRowsSelected(checked)}
              />
            ),
            cell: ({ row }) => (
              <SelectionCheckbox
                aria-label={select.row(row.original)}
                checked={row.getIsSelected()}
                onCheckedChange={(checked) => row.toggleSelected(checked)}
              />
            ),
            meta: { className: 'w-10 pr-0 pl-4', skeletonClassName: 'w-4' },
          } satisfies ColumnDef<Row>,
        ]
      : []),
    ...data,
    ...(d.extra ?? []),
    ...(actions
      ? [
          {
            id: ACTIONS_COLUMN,
            enableSorting: false,
            enableHiding: false,
            header: () => <span className="sr-only">{actions.label}</span>,
            cell: ({ row }) => <div className="flex justify-end">{actions.render(row.original)}</div>,
            meta: { className: 'w-12 pr-3 text-right', skeletonClassName: 'ml-auto w-6' },
          } satisfies ColumnDef<Row>,
        ]
      : []),
  ];
}

/** A date in a table: the day, the full instant (time zone included) on hover. */
export function DateCell({ iso, locale }: { iso: string; locale: string }) {
  return (
    <time
      dateTime={iso}
      title={formatDate(iso, 'full', locale)}
      className="whitespace-nowrap text-muted-foreground tabular-nums"
    >
      {formatDate(iso, 'day', locale)}
    </time>
  );
}
