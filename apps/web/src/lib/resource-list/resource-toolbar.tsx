import { ColumnVisibilityMenu, cn, DensityToggle, Toolbar, ToolbarSpacer } from '@app/ui';
import type { ReactNode } from 'react';
import type { ListStrings } from '../../i18n/list-strings';
import { ExportMenu } from './export-menu';
import { ResourceFilterChips } from './filter-chips';
import { type FilterField, withoutField } from './filter-fields';
import { FiltersPopover } from './filters-popover';
import { SearchBox } from './search-box';
import type { TablePreferences } from './use-table-preferences';
import type { ListController } from './use-list-state';

export interface ResourceToolbarProps<S extends string, F extends object, K extends string> {
  list: ListController<S, F>;
  strings: Pick<ListStrings, 'search' | 'filters' | 'export' | 'view'>;
  /** The filter form's fields, and the chips' (same fields, perhaps another order). Absent: no form, no chips. */
  filters?: { fields: readonly FilterField[]; chipFields?: readonly FilterField[] };
  /** The export menu, for a caller who may export; absent otherwise. */
  exporting?: { path: string; selectedIds?: readonly number[]; total: number | undefined; totalExact?: boolean };
  /** The hideable columns' names, for the column menu (when the viewer may adjust the view), optional ones included. */
  columns: ReadonlyArray<{ key: K | string; label: string; locked: boolean }>;
  prefs: TablePreferences<K>;
  /** Filters of the resource's own making, on a row below the search (a row of toggle chips). */
  children?: ReactNode;
  className?: string;
}

/** Search, filters, export and view controls above a resource's table, and the chips of what is in force. */
export function ResourceToolbar<S extends string, F extends object, K extends string>({
  list,
  strings: t,
  filters,
  exporting,
  columns,
  prefs,
  children,
  className,
}: ResourceToolbarProps<S, F, K>) {
  const { state } = list;
  const chipFields = filters ? (filters.chipFields ?? filters.fields) : [];
  const removeChip = (id: string) =>
    id === 'q'
      ? list.setSearch('')
      : list.setFilters(withoutField(chipFields, state.filters as Record<string, unknown>, id) as F);
  // The menu reports the id it was given: one of `columns`' keys.
  const setVisible = (id: string, visible: boolean) => {
    const column = columns.find((c) => c.key === id);
    if (column) prefs.setColumnVisible(column.key, visible);
  };

  return (
    <div className={cn('space-y-3 border-b border-border p-3 sm:px-4', className)}>
      <Toolbar>
        <SearchBox value={state.q} onCommit={list.setSearch} strings={t.search} className="w-full sm:w-72" />
        {filters ? (
          <FiltersPopover
            fields={filters.fields}
            filters={state.filters}
            onApply={list.setFilters}
            strings={t.filters}
          />
        ) : null}
        <ToolbarSpacer />
        {exporting || prefs.adjustable ? (
          <div className="ml-auto flex items-center gap-2 sm:ml-0">
            {exporting ? (
              <ExportMenu
                path={exporting.path}
                strings={t.export}
                state={state}
                columns={prefs.visibleColumns}
                selectedIds={exporting.selectedIds ?? []}
                total={exporting.total}
                totalExact={exporting.totalExact ?? true}
              />
            ) : null}
            {prefs.adjustable ? (
              <>
                <ColumnVisibilityMenu
                  label={t.view.columns}
                  heading={t.view.columnsHeading}
                  resetLabel={t.view.showAllColumns}
                  onReset={prefs.showAllColumns}
                  columns={columns.map(({ key, label, locked }) => ({
                    id: key,
                    label,
                    visible: prefs.isVisible(key),
                    locked,
                  }))}
                  onVisibilityChange={setVisible}
                />
                <DensityToggle
                  label={t.view.density}
                  optionLabels={{ compact: t.view.compact, comfortable: t.view.comfortable }}
                  value={prefs.density}
                  onValueChange={prefs.setDensity}
                />
              </>
            ) : null}
          </div>
        ) : null}
      </Toolbar>
      {children}
      {filters ? (
        <ResourceFilterChips
          fields={chipFields}
          q={state.q}
          filters={state.filters}
          onRemove={removeChip}
          onClearAll={list.clearFilters}
          strings={{
            label: t.filters.chipsLabel,
            search: t.filters.chip.search,
            removeChip: t.filters.removeChip,
            clearAll: t.filters.clearAll,
          }}
        />
      ) : null}
    </div>
  );
}
