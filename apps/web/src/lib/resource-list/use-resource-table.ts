import { type ColumnDef, getCoreRowModel, type SortingState, useReactTable } from '@tanstack/react-table';
import type { TableDensity } from '@app/ui';
import type { VisibilityState } from '@tanstack/react-table';
import { SELECT_COLUMN } from './column-meta';
import type { ListController } from './use-list-state';
import type { Selection } from './use-selection';

const NO_ROWS: never[] = [];

export interface UseResourceTableOptions<Row extends { id: number }, S extends string, F extends object> {
  rows: Row[] | undefined;
  pageCount: number;
  columns: ColumnDef<Row>[];
  list: ListController<S, F>;
  prefs: { visibility: VisibilityState; density: TableDensity };
  /** Cross-page selection, when the page offers bulk actions or an export of a selection. */
  selection?: Selection;
}

/**
 * The TanStack table over one server page. Sorting, paging and selection are manual: the URL
 * holds sort and page, the selection hook holds the selected ids across pages.
 */
export function useResourceTable<Row extends { id: number }, S extends string, F extends object>({
  rows,
  pageCount,
  columns,
  list,
  prefs,
  selection,
}: UseResourceTableOptions<Row, S, F>) {
  const { sort, dir } = list.state;
  const sorting: SortingState = sort ? [{ id: sort, desc: dir === 'desc' }] : [];
  const pageIds = (rows ?? NO_ROWS).map((row) => row.id);
  return useReactTable<Row>({
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
    enableRowSelection: selection !== undefined,
    state: {
      sorting,
      // Without a selection the checkbox column is not shown at all.
      columnVisibility: selection ? prefs.visibility : { ...prefs.visibility, [SELECT_COLUMN]: false },
      rowSelection: selection?.rowsFor(pageIds) ?? {},
    },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      list.setSort(first ? (first.id as S) : null, first?.desc ? 'desc' : 'asc');
    },
    ...(selection ? { onRowSelectionChange: (updater) => selection.change(updater, pageIds) } : {}),
  });
}
