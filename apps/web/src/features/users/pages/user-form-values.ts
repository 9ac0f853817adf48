import type { UserEditItem } from '@app/contracts';
import { type AttributeTexts, toAttributeTexts } from '../../attributes/user-attribute-form';

/** What the user form holds; the contracts' schemas turn it into the API's input on submit. */
export interface UserFormValues {
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
  roles_ids: number[];
  /** Permissions granted to the user directly, by name, beside their roles'. */
  permissions: string[];
  is_active: boolean;
  /** Create only: no password now, an invitation's link lets the person choose it. */
  invite?: boolean;
  /** The optimistic-lock token of the record being edited (edit only). */
  version?: string;
  /** Custom attribute values as typed, by key (see AttributeTexts). */
  attributes?: AttributeTexts;
}

/** Fields the server may name in `error.data.errors`, in the order the form shows them. */
export const USER_FORM_FIELDS = [
  'name',
  'email',
  'password',
  'password_confirmation',
  'is_active',
  'roles_ids',
  'permissions',
] as const satisfies ReadonlyArray<keyof UserFormValues>;

/** Fields another administrator can change under an open form (the password is never shown). */
export const CONFLICT_FIELDS = ['name', 'email', 'is_active', 'roles_ids', 'permissions'] as const;
export type ConflictField = (typeof CONFLICT_FIELDS)[number];

export const EMPTY_USER_FORM: UserFormValues = {
  name: '',
  email: '',
  password: '',
  password_confirmation: '',
  roles_ids: [],
  permissions: [],
  is_active: true,
  invite: false,
  attributes: {},
};

export function toFormValues(item: UserEditItem): UserFormValues {
  return {
    name: item.name,
    email: item.email,
    password: '',
    password_confirmation: '',
    roles_ids: [...item.roles_ids].sort((a, b) => a - b),
    permissions: [...item.permissions],
    is_active: item.is_active,
    version: item.version,
    attributes: toAttributeTexts(item.attributes),
  };
}
