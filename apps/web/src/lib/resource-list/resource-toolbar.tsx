import { ColumnVisibilityMenu, DensityToggle, type TableDensity, Toolbar, ToolbarSpacer } from '@app/ui';
import type { ExportMenuStrings } from './export-menu';
import { ExportMenu } from './export-menu';
import { type FilterChipsStrings, ResourceFilterChips } from './filter-chips';
import type { FilterField } from './filter-fields';
import { FiltersPopover, type FiltersPopoverStrings } from './filters-popover';
import { SearchBox } from './search-box';
import type { ListController } from './use-list-state';

/** A resource's words for its toolbar's view controls. */
export interface ViewStrings {
  columns: string;
  columnsHeading: string;
  showAllColumns: string;
  density: string;
  compact: string;
  comfortable: string;
}

export interface ResourceToolbarProps<S extends string, F extends object, K extends string> {
  list: ListController<S, F>;
  search: { label: string; clear: string; placeholder: string };
  /** The filter form's fields, and the chips' (same fields, perhaps another order). */
  filters: { fields: readonly FilterField[]; chipFields: readonly FilterField[]; strings: FiltersPopoverStrings };
  chips: FilterChipsStrings;
  /** The export menu, for a caller who may export; absent otherwise. */
  exporting?: {
    path: string;
    strings: ExportMenuStrings;
    selectedIds?: readonly number[];
    total: number | undefined;
    totalExact?: boolean;
  };
  columns: ReadonlyArray<{ key: K; label: string; locked: boolean }>;
  prefs: {
    hidden: readonly K[];
    visibleColumns: readonly K[];
    density: TableDensity;
    setDensity: (density: TableDensity) => void;
    setColumnVisible: (key: K, visible: boolean) => void;
    showAllColumns: () => void;
  };
  view: ViewStrings;
}

/** Search, filters, export and view controls above a resource's table, and the chips of what is in force. */
export function ResourceToolbar<S extends string, F extends object, K extends string>({
  list,
  search,
  filters,
  chips,
  exporting,
  columns,
  prefs,
  view: v,
}: ResourceToolbarProps<S, F, K>) {
  const { state } = list;
  const removeChip = (id: string) =>
    id === 'q' ? list.setSearch('') : list.patchFilters({ [id]: undefined } as Partial<F>);
  // The menu reports the id it was given: one of `columns`' keys.
  const setVisible = (id: string, visible: boolean) => {
    const column = columns.find((c) => c.key === id);
    if (column) prefs.setColumnVisible(column.key, visible);
  };

  return (
    <div className="space-y-3 border-b border-border p-3 sm:px-4">
      <Toolbar>
        <SearchBox value={state.q} onCommit={list.setSearch} strings={search} className="w-full sm:w-72" />
        <FiltersPopover
          fields={filters.fields}
          filters={state.filters}
          onApply={list.setFilters}
          strings={filters.strings}
        />
        <ToolbarSpacer />
        <div className="ml-auto flex items-center gap-2 sm:ml-0">
          {exporting ? (
            <ExportMenu
              path={exporting.path}
              strings={exporting.strings}
              state={state}
              columns={prefs.visibleColumns}
              selectedIds={exporting.selectedIds ?? []}
              total={exporting.total}
              totalExact={exporting.totalExact ?? true}
            />
          ) : null}
          <ColumnVisibilityMenu
            label={v.columns}
            heading={v.columnsHeading}
            resetLabel={v.showAllColumns}
            onReset={prefs.showAllColumns}
            columns={columns.map(({ key, label, locked }) => ({
              id: key,
              label,
              visible: !prefs.hidden.includes(key),
              locked,
            }))}
            onVisibilityChange={setVisible}
          />
          <DensityToggle
            label={v.density}
            optionLabels={{ compact: v.compact, comfortable: v.comfortable }}
            value={prefs.density}
            onValueChange={prefs.setDensity}
          />
        </div>
      </Toolbar>
      <ResourceFilterChips
        fields={filters.chipFields}
        q={state.q}
        filters={state.filters}
        onRemove={removeChip}
        onClearAll={list.clearFilters}
        strings={chips}
      />
    </div>
  );
}
