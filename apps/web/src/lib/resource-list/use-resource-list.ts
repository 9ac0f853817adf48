import type { Job, ListMeta } from '@app/contracts';
import { keepPreviousData, type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import type { ColumnDef, Table } from '@tanstack/react-table';
import { useEffect, useMemo } from 'react';
import type { BulkReportLike, ResourceBulkOptions } from './bulk-actions';
import type { ResourceListDeclaration } from './define-resource-list';
import { type ListState, toListInput } from './list-state';
import { type BoundBulk, bindBulk } from './resource-bulk';
import type { ListQueryState } from './resource-table';
import { type ListController, useListState } from './use-list-state';
import { useResourceTable } from './use-resource-table';
import { type Selection, useSelection } from './use-selection';
import { type TablePreferences, useTablePreferences } from './use-table-preferences';

/** What a resource's `list` procedure is asked for. */
export type ListInput<S extends string, F extends object> = ReturnType<typeof toListInput<S, F>>;

export interface UseResourceListOptions<
  Row,
  Data,
  E,
  QK extends QueryKey,
  S extends string,
  F extends object,
  Op = never,
  A = never,
  BE = never,
> {
  /** The list query for a state's input, as TanStack Query options (tRPC's `queryOptions`). */
  query: (input: ListInput<S, F>) => UseQueryOptions<Data, E, Data, QK>;
  /** The rows of an answer. */
  rows: (data: Data) => Row[];
  /** The columns; a function of the answer when some come with it (a custom attribute's, `meta.optional`). */
  columns: ColumnDef<Row>[] | ((data: Data | undefined) => ColumnDef<Row>[]);
  /**
   * Rows can be ticked, across pages, for an export of a selection (bulk actions make them so by
   * themselves); may depend on the view. When not, a `select` column among `columns` is hidden.
   */
  selectable?: boolean | ((state: ListState<S, F>) => boolean);
  /** The resource's bulk actions: the selection bar offers those the caller holds in this view. */
  bulk?: ResourceBulkOptions<Op, Row, ListState<S, F>, Data, F, A, BE>;
  /** Adjusts what the URL says to what the caller may see (see `useListState`). */
  sanitize?: (state: ListState<S, F>) => ListState<S, F>;
}

/**
 * One resource's list page, as one controller: its state in the URL, the query for it (the
 * previous page stays while the next loads), the TanStack table over the answer, the selection
 * across pages, the viewer's column and density preferences, and the move to the last page when
 * the page in the URL no longer exists (the last rows were deleted, a stale link), and the bulk
 * actions bound to that state.
 */
export function useResourceList<
  Row extends { id: number },
  Data extends { meta: ListMeta },
  E,
  QK extends QueryKey,
  S extends string,
  F extends object,
  K extends string,
  Op = never,
  A extends BulkReportLike | { job: Job } = never,
  BE = never,
>(declaration: ResourceListDeclaration<S, F, K>, options: UseResourceListOptions<Row, Data, E, QK, S, F, Op, A, BE>) {
  const list = useListState(declaration.codec, options.sanitize);
  const { state } = list;
  const selection = useSelection(declaration.codec.scopeKey(state));
  const query = useQuery({ ...options.query(toListInput(state)), placeholderData: keepPreviousData });
  const data = query.data;
  const columns = typeof options.columns === 'function' ? options.columns(data) : options.columns;
  const optionalKey = columns.flatMap((c) => (c.meta?.optional && c.id ? [c.id] : [])).join('\n');
  const optional = useMemo(() => (optionalKey ? optionalKey.split('\n') : []), [optionalKey]);
  const prefs = useTablePreferences(declaration.preferences, optional);
  const rows = data ? options.rows(data) : undefined;
  const pageCount = data?.meta.pageCount ?? 0;
  const bulk = options.bulk ? bindBulk(options.bulk, { state, selection, data, rows }) : undefined;
  const selectable =
    (typeof options.selectable === 'function' ? options.selectable(state) : (options.selectable ?? false)) ||
    (bulk?.offers ?? false);
  const table = useResourceTable<Row, S, F>({
    rows,
    pageCount,
    columns,
    list,
    prefs,
    ...(selectable ? { selection } : {}),
  });

  useEffect(() => {
    if (!query.isPlaceholderData && pageCount > 0 && state.page > pageCount) list.setPage(pageCount);
  }, [query.isPlaceholderData, pageCount, state.page, list.setPage]);

  return {
    list,
    state,
    query,
    data,
    meta: data?.meta,
    rows,
    table,
    selection,
    selectable,
    bulk,
    prefs,
    declaration,
  };
}

/** What the view needs of a list's controller. */
export interface ResourceListController<Row, S extends string, F extends object, K extends string> {
  list: ListController<S, F>;
  state: ListState<S, F>;
  query: ListQueryState;
  meta: ListMeta | undefined;
  table: Table<Row>;
  selection: Selection;
  selectable: boolean;
  bulk: BoundBulk | undefined;
  prefs: TablePreferences<K>;
  declaration: ResourceListDeclaration<S, F, K>;
}
