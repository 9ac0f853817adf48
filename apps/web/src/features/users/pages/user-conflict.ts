import type { AttributeField, UserEditResult } from '@app/contracts';
import type { ConflictRow } from '../../../components/conflict-banner';
import type { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { conflictingFields, keepingEdits } from '../../../lib/version-conflict';
import type { AttributeTexts } from '../../attributes/user-attribute-form';
import { CONFLICT_FIELDS, type ConflictField, type UserFormValues } from './user-form-values';

type UserPagesMessages = ReturnType<typeof useUserPagesMessages>;

/** The user form as a 409 sees it: the version it was opened at, the caller's, the server's now. */
export interface UserVersions {
  opened: UserFormValues;
  mine: UserFormValues;
  latest: UserFormValues;
}

/** Each attribute the form shows, by key, "" when it has no value (a missing key and an empty field are one). */
const textsOf = (values: UserFormValues, fields: readonly AttributeField[]): AttributeTexts =>
  Object.fromEntries(fields.map((field) => [field.key, values.attributes?.[field.key] ?? '']));

const attributeVersions = (versions: UserVersions, fields: readonly AttributeField[]) => ({
  opened: textsOf(versions.opened, fields),
  mine: textsOf(versions.mine, fields),
  latest: textsOf(versions.latest, fields),
});

/**
 * The server's version (its version token too) with every field the caller edited on top,
 * custom attributes one by one; the typed password is the caller's alone and stays.
 */
export function userKeepingEdits(versions: UserVersions, fields: readonly AttributeField[]): UserFormValues {
  const keys = fields.map((field) => field.key);
  const values = keepingEdits(CONFLICT_FIELDS, versions);
  return {
    ...values,
    attributes: { ...versions.latest.attributes, ...keepingEdits(keys, attributeVersions(versions, fields)) },
    password: versions.mine.password,
    password_confirmation: versions.mine.password_confirmation,
  };
}

/**
 * The 409 banner's rows for a user: each field (and custom attribute) where the caller's form and
 * the server's version differ, the server's value beside the caller's (none when they left it alone).
 */
export function userConflictRows(
  versions: UserVersions,
  data: Pick<UserEditResult['options'], 'roles' | 'attributes'>,
  m: UserPagesMessages,
): ConflictRow[] {
  const f = m.userForm;
  const text = (value: string) => value.trim() || f.emptyValue;
  const roleName = (id: number) => data.roles.find((role) => role.id === id)?.name ?? `#${id}`;
  const shown: Record<ConflictField, { label: string; of: (values: UserFormValues) => string }> = {
    name: { label: f.name, of: (values) => text(values.name) },
    email: { label: f.email, of: (values) => text(values.email) },
    is_active: { label: f.active, of: (values) => (values.is_active ? m.userPage.active : m.userPage.inactive) },
    roles_ids: { label: f.roles, of: (values) => values.roles_ids.map(roleName).join(', ') || f.noRolesValue },
    permissions: { label: f.directTitle, of: (values) => values.permissions.join(', ') || f.noDirectValue },
  };
  const fieldRows = conflictingFields(CONFLICT_FIELDS, versions).map(({ field, edited }) => ({
    field,
    label: shown[field].label,
    theirs: shown[field].of(versions.latest),
    mine: edited ? shown[field].of(versions.mine) : null,
  }));
  const attributes = attributeVersions(versions, data.attributes);
  const keys = data.attributes.map((field) => field.key);
  const attributeRows = conflictingFields(keys, attributes).map(({ field, edited }) => ({
    field: `attributes.${field}`,
    label: data.attributes.find((definition) => definition.key === field)?.label ?? field,
    theirs: text(attributes.latest[field] ?? ''),
    mine: edited ? text(attributes.mine[field] ?? '') : null,
  }));
  return [...fieldRows, ...attributeRows];
}
