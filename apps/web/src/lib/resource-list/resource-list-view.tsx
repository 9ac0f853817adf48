import { Button, Card, cn, EmptyState } from '@app/ui';
import { SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ListStrings } from '../../i18n/list-strings';
import type { FilterField } from './filter-fields';
import { isFiltered, type ListState } from './list-state';
import { ResourceTable } from './resource-table';
import { ResourceToolbar } from './resource-toolbar';
import type { SelectionBarBase } from './resource-bulk';
import { SelectionBar } from './selection-bar';
import type { ResourceListController } from './use-resource-list';

export interface ResourceListViewProps<Row, S extends string, F extends object, K extends string> {
  controller: ResourceListController<Row, S, F, K>;
  /** The list's strings, written by `listStrings` from the resource's noun. */
  strings: ListStrings;
  /** The filter form's fields (and the chips', in another order if need be). */
  filters?: { fields: readonly FilterField[]; chipFields?: readonly FilterField[] };
  /** Filters of the resource's own making, below the search. */
  filterBar?: ReactNode;
  /** The export route, for a caller who may export. */
  exportPath?: string;
  /** The icon of the "nothing here yet" state; `special` may stand for a view of its own (an empty trash). */
  empty: { icon: ReactNode; special?: (state: ListState<S, F>) => ReactNode | null };
  /** The card's classes, and a heading of its own above the toolbar (named by `labelledBy`). */
  className?: string;
  header?: ReactNode;
  labelledBy?: string;
}

/**
 * A resource's list: toolbar (search, filters, chips, export, view controls), the rows (a table,
 * or cards on a phone), pagination, the empty and error states, and the selection bar with the
 * controller's bulk actions and their dialogs.
 */
export function ResourceListView<Row, S extends string, F extends object, K extends string>({
  controller: c,
  strings: t,
  filters,
  filterBar,
  exportPath,
  empty,
  className,
  header,
  labelledBy,
}: ResourceListViewProps<Row, S, F, K>) {
  const { state, list, table, selection, meta } = c;
  const preferences = c.declaration.preferences;
  const columns = [...(preferences?.columns ?? []), ...(preferences ? c.prefs.optional : [])].map((key) => ({
    key,
    label: table.getColumn(key)?.columnDef.meta?.label ?? key,
    locked: preferences?.locked.has(key as K) ?? false,
  }));
  const pageRows = table.getRowModel().rows.length;
  const bar: SelectionBarBase = {
    strings: t.selection,
    count: selection.count,
    matching: selection.matching,
    pageSelected: pageRows > 0 && table.getIsAllPageRowsSelected(),
    pageRows,
    total: meta?.total ?? 0,
    totalExact: meta?.totalExact ?? true,
    onSelectMatching: () => selection.selectMatching(meta?.total ?? 0, meta?.totalExact ?? true),
    onClear: selection.clear,
  };

  const emptyState =
    empty.special?.(state) ??
    (isFiltered(state) ? (
      <EmptyState
        icon={<SearchX aria-hidden="true" />}
        title={t.empty.noMatchTitle}
        description={t.empty.noMatchBody}
        action={
          <Button variant="secondary" size="sm" onClick={list.clearFilters}>
            {t.empty.clearFilters}
          </Button>
        }
      />
    ) : (
      <EmptyState icon={empty.icon} title={t.empty.noneTitle} description={t.empty.noneBody} />
    ));

  return (
    <>
      <Card aria-labelledby={labelledBy} className={cn('overflow-hidden', className)}>
        {header}
        <ResourceToolbar
          className={header ? 'border-t' : undefined}
          list={list}
          strings={t}
          {...(filters ? { filters } : {})}
          {...(exportPath
            ? {
                exporting: {
                  path: exportPath,
                  selectedIds: selection.ids,
                  total: meta?.total,
                  totalExact: meta?.totalExact ?? true,
                },
              }
            : {})}
          columns={columns}
          prefs={c.prefs}
        >
          {filterBar}
        </ResourceToolbar>
        <ResourceTable
          table={table}
          query={c.query}
          list={list}
          density={c.prefs.density}
          perPageOptions={c.declaration.perPageOptions}
          empty={emptyState}
          strings={t}
        />
      </Card>
      {c.selectable ? (
        <>
          {/* Room below the last row, so the floating bar never covers it. */}
          {selection.count > 0 ? <div aria-hidden="true" className="h-28" /> : null}
          {c.bulk ? c.bulk.render({ bar, strings: t }) : <SelectionBar {...bar} actions={[]} onAction={() => {}} />}
        </>
      ) : null}
    </>
  );
}
