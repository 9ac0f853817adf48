import { PERMISSIONS } from '@app/contracts';
import type { ConflictRow } from '../../components/conflict-banner';
import type { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { conflictingFields } from '../../lib/version-conflict';
import { ROLE_FORM_FIELDS, type RoleFormValues } from './role-form';

type RoleEditorMessages = ReturnType<typeof useRoleEditorMessages>;

/** Permissions in the catalogue's order, so two sets read alike. */
const inOrder = (names: readonly string[]) => PERMISSIONS.filter((name) => names.includes(name));

/**
 * The 409 banner's rows for a role: each field where the caller's form and the server's version
 * differ, the server's value beside the caller's (none when they left the field alone). A
 * permission set can be long: the caller's is told as what it adds to and takes from theirs.
 */
export function roleConflictRows(
  versions: { opened: RoleFormValues; mine: RoleFormValues; latest: RoleFormValues },
  r: RoleEditorMessages,
): ConflictRow[] {
  const t = r.form.conflict;
  const { mine, latest } = versions;
  const text = (value: string) => value.trim() || t.empty;
  const show = {
    name: { label: r.form.name, theirs: text(latest.name), mine: text(mine.name) },
    description: { label: r.form.description, theirs: text(latest.description), mine: text(mine.description) },
    require_two_factor: {
      label: r.form.requireTwoFactor,
      theirs: t.required(latest.require_two_factor),
      mine: t.required(mine.require_two_factor),
    },
    permissions: {
      label: r.form.permissionsTitle,
      theirs: inOrder(latest.permissions).join(', ') || t.noPermissions,
      mine: t.permissionChanges(
        inOrder(mine.permissions.filter((name) => !latest.permissions.includes(name))),
        inOrder(latest.permissions.filter((name) => !mine.permissions.includes(name))),
      ),
    },
  } satisfies Record<(typeof ROLE_FORM_FIELDS)[number], Omit<ConflictRow, 'field'>>;
  return conflictingFields(ROLE_FORM_FIELDS, versions).map(({ field, edited }) => ({
    field,
    ...show[field],
    mine: edited ? show[field].mine : null,
  }));
}
