import { INVITATION_STATES } from '@app/contracts';
import type { FilterField } from '../resource-list/filter-fields';
import type { Messages } from '../../i18n/messages';
import { attributeFilterFields } from './users-attribute-filters';

/**
 * The users list's filters for the kit's form and chips, in the form's order. The trash view is
 * offered only to those who may see deleted users.
 */
function usersFilterFields(
  m: Messages,
  roles: ReadonlyArray<{ id: number; name: string }> | undefined,
  canSeeTrash: boolean,
): FilterField[] {
  const t = m.usersList.filters;
  const fields: FilterField[] = [
    { kind: 'text', key: 'name', label: t.name, chipLabel: t.chip.name },
    { kind: 'text', key: 'email', label: t.email, chipLabel: t.chip.email },
    {
      kind: 'select',
      key: 'is_active',
      label: t.status,
      chipLabel: t.chip.status,
      allLabel: t.statusAll,
      options: [
        { value: 'active', label: t.statusActive },
        { value: 'inactive', label: t.statusInactive },
      ],
    },
    {
      kind: 'multi',
      key: 'invitation',
      label: t.invitation,
      chipLabel: t.chip.invitation,
      description: t.invitationHint,
      options: INVITATION_STATES.map((state) => ({ value: state, label: t.invitationStates[state] })),
      unknownValue: String,
    },
    {
      kind: 'multi',
      key: 'role_id',
      label: t.roles,
      chipLabel: t.chip.roles,
      description: t.rolesHint,
      emptyMessage: t.noRoles,
      options: roles?.map((role) => ({ value: role.id, label: role.name })),
      unknownValue: t.unknownRole,
    },
    {
      kind: 'dateRange',
      key: 'created_between',
      label: t.created,
      chipLabel: t.chip.created,
      fromLabel: t.createdFrom,
      toLabel: t.createdTo,
      rangeText: t.createdRange,
    },
  ];
  if (canSeeTrash) {
    fields.push({
      kind: 'select',
      key: 'trashed',
      label: t.trash,
      chipLabel: t.chip.trash,
      allLabel: t.trashWithout,
      options: [
        { value: 'with', label: t.trashWith, chipValue: t.chip.trashWith },
        { value: 'only', label: t.trashOnly, chipValue: t.chip.trashOnly },
      ],
    });
  }
  return fields;
}

/** The chips' order: as the list has always shown them (roles before status). */
const CHIP_ORDER = ['name', 'email', 'role_id', 'is_active', 'invitation', 'created_between', 'trashed'];

const inChipOrder = (fields: readonly FilterField[]): FilterField[] =>
  [...fields].sort((a, b) => CHIP_ORDER.indexOf(a.key) - CHIP_ORDER.indexOf(b.key));

/**
 * The form's fields and the chips': until the roles arrive the form offers none, and their chip says
 * "…"; the attributes' filters once the list's answer names them.
 */
export function usersFilters(
  m: Messages,
  roles: ReadonlyArray<{ id: number; name: string }> | undefined,
  canSeeTrash: boolean,
  attributes?: Parameters<typeof attributeFilterFields>[0],
): { fields: FilterField[]; chipFields: FilterField[] } {
  const fields = usersFilterFields(m, roles, canSeeTrash);
  // The custom attributes' filters come after the users' own, in the form and among the chips.
  const custom = attributeFilterFields(attributes, m);
  return {
    fields: [...(roles ? fields : usersFilterFields(m, [], canSeeTrash)), ...custom],
    chipFields: [...inChipOrder(fields), ...custom],
  };
}
