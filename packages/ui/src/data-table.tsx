import { type Column, flexRender, type Row, type RowData, type Table } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { cn } from './cn';
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from './icons';
import { Skeleton } from './skeleton';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for this column's header and body cells (width, alignment, stickiness). */
    className?: string;
    /** Skeleton bar width while loading, e.g. `w-24`. */
    skeletonClassName?: string;
  }
}

export type TableDensity = 'compact' | 'comfortable';
export const TABLE_DENSITIES: readonly TableDensity[] = ['compact', 'comfortable'];

// Rows have a fixed height per density (a <tr>'s height is its minimum), so skeleton rows,
// data rows and rows with controls all line up and nothing jumps when data arrives.
const rowHeight: Record<TableDensity, string> = {
  compact: 'h-9',
  comfortable: 'h-13',
};
const cellPadding: Record<TableDensity, string> = {
  compact: 'px-3 py-0.5',
  comfortable: 'px-3 py-2',
};

export interface DataTableProps<TData> {
  /** A TanStack table; sorting, paging and selection are the caller's (usually manual, server-side). */
  table: Table<TData>;
  /** Accessible name of the table. */
  label: string;
  density?: TableDensity;
  /** First load: skeleton rows stand in for data. */
  loading?: boolean;
  /** Read out while loading. */
  loadingLabel: string;
  skeletonRows?: number;
  /** Newer data is on its way while the current rows stay visible: dimmed and marked busy, no jump. */
  stale?: boolean;
  /** Shown under the header when there are no rows and nothing is loading. */
  empty?: ReactNode;
  rowClassName?: (row: Row<TData>) => string | undefined;
  className?: string;
}

function ariaSort<TData>(column: Column<TData>) {
  if (!column.getCanSort()) return undefined;
  const sorted = column.getIsSorted();
  return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';
}

/**
 * A server-driven table: the caller owns the state, this renders it. Scrolls sideways inside its
 * container on narrow screens rather than squeezing columns.
 */
export function DataTable<TData>({
  table,
  label,
  density = 'comfortable',
  loading = false,
  loadingLabel,
  skeletonRows = 10,
  stale = false,
  empty,
  rowClassName,
  className,
}: DataTableProps<TData>) {
  const columns = table.getVisibleLeafColumns();
  const rows = table.getRowModel().rows;
  const pad = cellPadding[density];
  const height = rowHeight[density];
  const isEmpty = !loading && rows.length === 0;

  return (
    <div className={cn('relative w-full', className)}>
      <div className="w-full overflow-x-auto">
        <table aria-label={label} aria-busy={loading || stale || undefined} className="w-full border-collapse text-sm">
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id} className="border-b border-border bg-surface-muted/50">
                {group.headers.map((header) => (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={ariaSort(header.column)}
                    className={cn(
                      'h-10 px-3 text-left align-middle text-xs font-medium whitespace-nowrap text-muted-foreground',
                      header.column.columnDef.meta?.className,
                    )}
                  >
                    {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className={cn('transition-opacity duration-200', stale && 'opacity-60')}>
            {loading
              ? Array.from({ length: skeletonRows }, (_, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                  <tr key={index} className={cn(height, 'border-b border-border last:border-b-0')}>
                    {columns.map((column) => (
                      <td key={column.id} className={cn(pad, column.columnDef.meta?.className)}>
                        <Skeleton className={cn('h-4', column.columnDef.meta?.skeletonClassName ?? 'w-20')} />
                      </td>
                    ))}
                  </tr>
                ))
              : isEmpty
                ? null
                : rows.map((row) => (
                    <tr
                      key={row.id}
                      data-state={row.getIsSelected() ? 'selected' : undefined}
                      className={cn(
                        height,
                        'border-b border-border transition-colors last:border-b-0 hover:bg-surface-muted/50',
                        'data-[state=selected]:bg-primary/[0.06] dark:data-[state=selected]:bg-primary/10',
                        rowClassName?.(row),
                      )}
                    >
                      {row.getVisibleCells().map((cell) => (
                        <td key={cell.id} className={cn(pad, 'align-middle', cell.column.columnDef.meta?.className)}>
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </td>
                      ))}
                    </tr>
                  ))}
          </tbody>
        </table>
      </div>
      {/* Outside the scrolling area, so it stays centred in view however wide the columns are. */}
      {isEmpty ? <div>{empty}</div> : null}
      {loading ? (
        <span role="status" className="sr-only">
          {loadingLabel}
        </span>
      ) : null}
    </div>
  );
}

export interface DataTableColumnHeaderProps<TData, TValue> {
  column: Column<TData, TValue>;
  title: string;
  className?: string;
}

/**
 * A header that sorts when its column can: a button cycling ascending → descending → unsorted.
 * The state is announced through the cell's `aria-sort`; the arrow shows it.
 */
export function DataTableColumnHeader<TData, TValue>({
  column,
  title,
  className,
}: DataTableColumnHeaderProps<TData, TValue>) {
  if (!column.getCanSort()) return <span className={className}>{title}</span>;
  const sorted = column.getIsSorted();
  const Arrow = sorted === 'asc' ? ArrowUpIcon : sorted === 'desc' ? ArrowDownIcon : ArrowUpDownIcon;
  return (
    <button
      type="button"
      onClick={column.getToggleSortingHandler()}
      className={cn(
        'group -mx-1.5 inline-flex h-7 items-center gap-1 rounded-md px-1.5 font-medium whitespace-nowrap',
        'hover:bg-surface-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
        sorted && 'text-foreground',
        className,
      )}
    >
      {title}
      <Arrow
        className={cn(
          'size-3.5 transition-opacity',
          sorted ? 'opacity-100' : 'opacity-40 group-hover:opacity-80 group-focus-visible:opacity-80',
        )}
      />
    </button>
  );
}
