import { USER_COLUMNS, type UserColumnKey } from '@app/contracts';
import { ColumnVisibilityMenu, DensityToggle, Toolbar, ToolbarSpacer } from '@app/ui';
import { useMessages } from '../../../i18n/messages';
import type { TablePreferences } from './use-table-preferences';
import type { UsersListController } from './use-users-list-state';
import { LOCKED_COLUMNS } from './users-columns';
import { ExportMenu } from '../../../lib/resource-list/export-menu';
import { ResourceFilterChips } from '../../../lib/resource-list/filter-chips';
import { FiltersPopover } from '../../../lib/resource-list/filters-popover';
import { inChipOrder, usersFilterFields } from './users-filter-fields';
import type { UsersListFilters } from './users-list-state';
import { SearchBox } from '../../../lib/resource-list/search-box';

export interface UsersToolbarProps {
  list: UsersListController;
  prefs: TablePreferences;
  /** Undefined until the first answer brings them. */
  roles: ReadonlyArray<{ id: number; name: string }> | undefined;
  canSeeTrash: boolean;
  canExport: boolean;
  selectedIds: readonly number[];
  total: number | undefined;
  totalExact?: boolean;
}

/** Search, filters and view controls above the table, and the chips of what is in force. */
export function UsersToolbar({
  list,
  prefs,
  roles,
  canSeeTrash,
  canExport,
  selectedIds,
  total,
  totalExact,
}: UsersToolbarProps) {
  const m = useMessages();
  const v = m.usersList.view;
  const { state } = list;

  const f = m.usersList.filters;
  const fields = usersFilterFields(m, roles, canSeeTrash);
  // Until the roles arrive the form offers none; a chip says "…" meanwhile.
  const formFields = roles ? fields : usersFilterFields(m, [], canSeeTrash);
  const removeChip = (id: string) =>
    id === 'q' ? list.setSearch('') : list.patchFilters({ [id]: undefined } as Partial<UsersListFilters>);

  return (
    <div className="space-y-3 border-b border-border p-3 sm:px-4">
      <Toolbar>
        <SearchBox value={state.q} onCommit={list.setSearch} strings={m.usersList.search} className="w-full sm:w-72" />
        <FiltersPopover
          fields={formFields}
          filters={state.filters}
          onApply={list.setFilters}
          strings={{ button: f.button, buttonCount: f.buttonCount, heading: f.heading, apply: f.apply, reset: f.reset }}
        />
        <ToolbarSpacer />
        <div className="ml-auto flex items-center gap-2 sm:ml-0">
          {canExport ? (
            <ExportMenu
              path="/api/users/export"
              strings={m.usersList.export}
              state={state}
              columns={prefs.visibleColumns}
              selectedIds={selectedIds}
              total={total}
              totalExact={totalExact}
            />
          ) : null}
          <ColumnVisibilityMenu
            label={v.columns}
            heading={v.columnsHeading}
            resetLabel={v.showAllColumns}
            onReset={prefs.showAllColumns}
            columns={USER_COLUMNS.map(({ key }) => ({
              id: key,
              label: m.usersList.columns[key],
              visible: !prefs.hidden.includes(key),
              locked: LOCKED_COLUMNS.has(key),
            }))}
            onVisibilityChange={(id, visible) => prefs.setColumnVisible(id as UserColumnKey, visible)}
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
        fields={inChipOrder(fields)}
        q={state.q}
        filters={state.filters}
        onRemove={removeChip}
        onClearAll={list.clearFilters}
        strings={{ label: f.chipsLabel, search: f.chip.search, removeChip: f.removeChip, clearAll: f.clearAll }}
      />
    </div>
  );
}
