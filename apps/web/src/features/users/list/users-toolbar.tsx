import { USER_COLUMNS } from '@app/contracts';
import { useMessages } from '../../../i18n/messages';
import { ResourceToolbar } from '../../../lib/resource-list/resource-toolbar';
import type { TablePreferences } from './use-table-preferences';
import type { UsersListController } from './use-users-list-state';
import { LOCKED_COLUMNS } from './users-columns';
import { inChipOrder, usersFilterFields } from './users-filter-fields';

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

/** The kit's toolbar with the users' filters, columns and words. */
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
  const f = m.usersList.filters;
  const fields = usersFilterFields(m, roles, canSeeTrash);
  return (
    <ResourceToolbar
      list={list}
      search={m.usersList.search}
      // Until the roles arrive the form offers none; their chip says "…" meanwhile.
      filters={{
        fields: roles ? fields : usersFilterFields(m, [], canSeeTrash),
        chipFields: inChipOrder(fields),
        strings: { button: f.button, buttonCount: f.buttonCount, heading: f.heading, apply: f.apply, reset: f.reset },
      }}
      chips={{ label: f.chipsLabel, search: f.chip.search, removeChip: f.removeChip, clearAll: f.clearAll }}
      {...(canExport
        ? { exporting: { path: '/api/users/export', strings: m.usersList.export, selectedIds, total, totalExact } }
        : {})}
      columns={USER_COLUMNS.map(({ key }) => ({
        key,
        label: m.usersList.columns[key],
        locked: LOCKED_COLUMNS.has(key),
      }))}
      prefs={prefs}
      view={m.usersList.view}
    />
  );
}
