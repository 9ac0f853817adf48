import { PERMISSIONS } from '@app/contracts';
import type { RolesPageMessages } from '../../i18n/roles-messages';
import type { FilterField } from '../../lib/resource-list/filter-fields';

const permissionLabel = (m: RolesPageMessages, name: string) => m.permissions.names[name]?.label ?? name;

/**
 * The roles list's filters for the kit's form and chips: the permission catalogue to tick. The
 * contract's `users_count` range has no control (the kit's form has no number range); one set by
 * a link still shows, and clears, as a chip.
 */
export function rolesFilterFields(m: RolesPageMessages): FilterField[] {
  const t = m.roles.filters;
  return [
    {
      kind: 'multi',
      key: 'permission',
      label: t.permission,
      chipLabel: t.chip.permission,
      description: t.permissionHint,
      options: PERMISSIONS.map((name) => ({ value: name, label: permissionLabel(m, name) })),
      unknownValue: (value) => permissionLabel(m, String(value)),
    },
    {
      kind: 'fixed',
      key: 'users_count',
      label: t.chip.users,
      chipLabel: t.chip.users,
      describe: (value) => {
        const { from, to } = value as { from?: number; to?: number };
        return t.usersRange(from, to);
      },
    },
  ];
}
