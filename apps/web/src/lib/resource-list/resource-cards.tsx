import { cn, Skeleton } from '@app/ui';
import { type Cell, type Column, flexRender, type Table } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { ACTIONS_COLUMN, SELECT_COLUMN } from './column-meta';
import { SortSelect, type SortSelectStrings } from './sort-select';

export interface ResourceCardsProps<Row> {
  table: Table<Row>;
  label: string;
  loading: boolean;
  loadingLabel: string;
  skeletonRows: number;
  stale: boolean;
  empty: ReactNode;
  sortStrings: SortSelectStrings;
}

const labelOf = <Row,>(column: Column<Row>) => column.columnDef.meta?.label ?? column.id;
const render = <Row,>(cell: Cell<Row, unknown> | undefined) =>
  cell ? flexRender(cell.column.columnDef.cell, cell.getContext()) : null;

/**
 * The table's rows as stacked cards, for a phone: the record's name first, the row's menu in the
 * card's corner, its checkbox beside it, and every other visible column as "label: value". The
 * same TanStack table drives both layouts, so selection, visibility and order carry over; the
 * column headers' sorting moves to one "Sort by" choice above the cards.
 */
export function ResourceCards<Row>(props: ResourceCardsProps<Row>) {
  const { table, loading } = props;
  const columns = table.getVisibleLeafColumns();
  const selectColumn = columns.find((c) => c.id === SELECT_COLUMN);
  const data = columns.filter((c) => c.id !== SELECT_COLUMN && c.id !== ACTIONS_COLUMN);
  const primary = data.find((c) => c.columnDef.meta?.primary) ?? data[0];
  const details = data.filter((c) => c !== primary);
  const selectHeader = table.getHeaderGroups()[0]?.headers.find((h) => h.column.id === SELECT_COLUMN);
  const rows = table.getRowModel().rows;
  const sortable = table.getAllLeafColumns().some((column) => column.getCanSort());

  return (
    <div className="relative w-full">
      {selectHeader || sortable ? (
        <div className="flex items-center gap-3 border-b border-border bg-surface-muted/50 px-4 py-2">
          {selectHeader ? flexRender(selectHeader.column.columnDef.header, selectHeader.getContext()) : null}
          <SortSelect table={table} strings={props.sortStrings} className="ml-auto min-w-0 flex-1" />
        </div>
      ) : null}
      <ul
        aria-label={props.label}
        aria-busy={loading || props.stale || undefined}
        className={cn('divide-y divide-border transition-opacity duration-200', props.stale && 'opacity-60')}
      >
        {loading
          ? Array.from({ length: props.skeletonRows }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
              <li key={index} className="space-y-2 px-4 py-3">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-3 w-56" />
                <Skeleton className="h-3 w-32" />
              </li>
            ))
          : rows.map((row) => {
              const cells = new Map(row.getVisibleCells().map((cell) => [cell.column.id, cell]));
              return (
                <li
                  key={row.id}
                  data-state={row.getIsSelected() ? 'selected' : undefined}
                  className="flex gap-3 px-4 py-3 data-[state=selected]:bg-primary/[0.06] dark:data-[state=selected]:bg-primary/10"
                >
                  {selectColumn ? (
                    <div className="flex h-6 items-center">{render(cells.get(SELECT_COLUMN))}</div>
                  ) : null}
                  <div className="min-w-0 flex-1">
                    <div className="flex min-h-6 items-center justify-between gap-2">
                      <div className="min-w-0 text-sm">{primary ? render(cells.get(primary.id)) : null}</div>
                      {cells.has(ACTIONS_COLUMN) ? (
                        <div className="-mr-1 shrink-0">{render(cells.get(ACTIONS_COLUMN))}</div>
                      ) : null}
                    </div>
                    <dl className="mt-1.5 space-y-1 text-sm">
                      {details.map((column) => (
                        <div key={column.id} className="grid grid-cols-[6.5rem_minmax(0,1fr)] items-baseline gap-x-3">
                          <dt className="truncate text-xs text-muted-foreground">{labelOf(column)}</dt>
                          {/* A cell truncated to fit a table column wraps on a card instead: all of it is shown. */}
                          <dd className="min-w-0 break-words [&_.truncate]:whitespace-normal [&_.truncate]:[overflow-wrap:anywhere]">
                            {render(cells.get(column.id))}
                          </dd>
                        </div>
                      ))}
                    </dl>
                  </div>
                </li>
              );
            })}
      </ul>
      {!loading && rows.length === 0 ? <div>{props.empty}</div> : null}
      {loading ? (
        <span role="status" className="sr-only">
          {props.loadingLabel}
        </span>
      ) : null}
    </div>
  );
}
