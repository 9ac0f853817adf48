import { AttributeFieldSchema, UserAttributesSchema } from '../attributes/user-attributes';
import { z } from 'zod';
import { TwoFactorStateSchema } from '../account';
import { InvitationStatusSchema, InviteAnswerSchema } from '../invitations';
import { IdSchema, IsoDateTimeSchema, NamedRefSchema } from '../common';
import { listResultSchema } from '../lists';
import { PermissionSchema } from '../permissions';
import { ShowMetaSchema } from '../query/define-show-query';
import { UserActionsSchema, UserSectionsSchema, UserShowActionsSchema } from './users.actions';
import { PermissionOptionSchema, RoleOptionSchema } from './users.new';
import type { UserColumnKey } from './users.columns';

/** A row of the users table and of every export: the column set plus `deleted_at`. */
export const UserRowSchema = z.object({
  id: IdSchema,
  name: z.string(),
  email: z.string(),
  roles_count: z.number().int().nonnegative(),
  /** The names of the roles the user holds, alphabetical. */
  roles: z.array(z.string()),
  is_active: z.boolean(),
  created_at: IsoDateTimeSchema,
  deleted_at: IsoDateTimeSchema.nullable(),
});
export type UserRow = z.infer<typeof UserRowSchema>;

// Compile-time guard: the row and the column set cannot drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rowMatchesColumns: Same<keyof UserRow, UserColumnKey | 'deleted_at'> = true;
void rowMatchesColumns;

export const UserItemSchema = z.object({
  id: IdSchema,
  name: z.string(),
  email: z.string(),
  is_active: z.boolean(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  deleted_at: IsoDateTimeSchema.nullable(),
  roles: z.array(NamedRefSchema).optional(),
  roles_count: z.number().int().nonnegative().optional(),
  is_admin: z.boolean().optional(),
  permission_names: z.array(z.string()).optional(),
  /** The latest invitation; null when never invited (SPEC §14). */
  invitation: InvitationStatusSchema.nullable().optional(),
  /** Custom attribute values by key: those the caller may see that hold a value (SPEC §14). */
  attributes: UserAttributesSchema.optional(),
});
export type UserItem = z.infer<typeof UserItemSchema>;

/**
 * POST /users (201): the new user; created with `invite: true`, also what POST /users/{id}/invite
 * answers — the invitation, and without mail the link to pass on (`url`).
 */
export const UserCreateAnswerSchema = z.object({ item: UserItemSchema }).extend(InviteAnswerSchema.partial().shape);
export type UserCreateAnswer = z.infer<typeof UserCreateAnswerSchema>;

/**
 * A list row as the table gets it: the row, what the caller may do to it, and its custom
 * attribute values by key (those the caller may see that hold a value; SPEC §14). GET /users
 * always sends `attributes`; optional for clients built before it.
 */
export const UserListRowSchema = UserRowSchema.extend({
  actions: UserActionsSchema,
  attributes: UserAttributesSchema.optional(),
});
export type UserListRow = z.infer<typeof UserListRowSchema>;

/**
 * GET /users/{id}: the item with how the user signs in, what the caller may do to it and which
 * page sections it gets.
 */
export const UserShowItemSchema = UserItemSchema.extend({
  /** When the user last signed in (any way: password, invitation, SSO); null when never. */
  last_sign_in_at: IsoDateTimeSchema.nullable(),
  /** The user's second factor: confirmed (`enrolled`), and asked for by one of their roles (`required`). */
  two_factor: TwoFactorStateSchema,
  /** The record's five actions and the sign-in ones (invite, sendPasswordReset, resetTwoFactor). */
  actions: UserShowActionsSchema,
  /** Which sections of the page the caller gets. */
  sections: UserSectionsSchema,
});
export type UserShowItem = z.infer<typeof UserShowItemSchema>;

export const UserShowResultSchema = z.object({ item: UserShowItemSchema, meta: ShowMetaSchema });
export type UserShowResult = z.infer<typeof UserShowResultSchema>;

/**
 * GET /users/{id}/edit: the item with its role ids, the permissions granted to it directly (beside
 * its roles'; the form edits them as a whole list) and the optimistic-lock token.
 */
export const UserEditItemSchema = UserItemSchema.extend({
  roles_ids: z.array(IdSchema),
  permissions: z.array(PermissionSchema),
  version: z.string(),
  actions: UserActionsSchema,
});
export type UserEditItem = z.infer<typeof UserEditItemSchema>;

export const UsersStatsSchema = z.object({
  total: z.number().int().nonnegative(),
  active: z.number().int().nonnegative(),
  inactive: z.number().int().nonnegative(),
  /** Present only when the caller may see the trash. */
  trashed: z.number().int().nonnegative().optional(),
});
export type UsersStats = z.infer<typeof UsersStatsSchema>;

export const UsersSelectedResultSchema = z.object({
  ids: z.array(IdSchema),
  total: z.number().int().nonnegative(),
  truncated: z.boolean(),
});
export type UsersSelectedResult = z.infer<typeof UsersSelectedResultSchema>;

/**
 * GET /users: a page of rows, its meta, the summary counters, the role options, the filters as
 * understood, and the custom attributes the caller may see: each one a column to show, a
 * filter (`filters[attributes][<key>]`, in the shapes its type takes) and a sort
 * (`sort=attributes.<key>`).
 */
export const UsersListResultSchema = listResultSchema(UserListRowSchema, {
  stats: UsersStatsSchema,
  availableRoles: z.array(NamedRefSchema),
  filters: z.record(z.string(), z.unknown()),
  /** Always sent by GET /users; optional for clients built before it. */
  attributes: z.array(AttributeFieldSchema).optional(),
});
export type UsersListResult = z.infer<typeof UsersListResultSchema>;

/**
 * GET /users/{id}/edit: the form's data, the role and direct-permission options (with whether the caller may grant each)
 * and record capabilities (`can`: each action's `allowed`, kept for clients of the first contract).
 */
export const UserEditResultSchema = z.object({
  item: UserEditItemSchema,
  options: z.object({
    roles: z.array(RoleOptionSchema),
    permissions: z.array(PermissionOptionSchema),
    /** The custom attributes the caller may see and write, as the form renders them. */
    attributes: z.array(AttributeFieldSchema),
  }),
  can: z.object({
    update: z.boolean(),
    setActive: z.boolean(),
    delete: z.boolean(),
    restore: z.boolean(),
    forceDelete: z.boolean(),
  }),
});
export type UserEditResult = z.infer<typeof UserEditResultSchema>;
