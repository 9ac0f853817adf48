import { z } from 'zod';
import { IdSchema, IsoDateTimeSchema, NamedRefSchema } from '../common';
import { ActionStateSchema } from '../lists';
import { defineShowQuery, ShowMetaSchema, type ShowQueryOf } from '../query/define-show-query';

export const roleShowQuery = defineShowQuery({
  with: ['permissions'],
  withCount: ['permissions', 'users'],
  append: [],
});
export type RoleShowQuery = ShowQueryOf<typeof roleShowQuery>;

/** What the caller may do to a role, as the writes themselves would judge it (roles.rules.ts). */
export const RoleActionsSchema = z.object({ update: ActionStateSchema, delete: ActionStateSchema });
export type RoleActions = z.infer<typeof RoleActionsSchema>;

export const RoleItemSchema = z.object({
  id: IdSchema,
  name: z.string(),
  description: z.string().nullable(),
  guard_name: z.string(),
  /** The optimistic-lock token a change (PUT /roles/{id}) sends back, as a user's `version`. */
  version: z.string(),
  /** Members must have a second factor: without one, their sessions are held at enrolment (SPEC §14). */
  require_two_factor: z.boolean(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  permissions: z.array(NamedRefSchema).optional(),
  permissions_count: z.number().int().nonnegative().optional(),
  /** Users holding the role, active or not, outside the trash. */
  users_count: z.number().int().nonnegative().optional(),
  actions: RoleActionsSchema.optional(),
});
export type RoleItem = z.infer<typeof RoleItemSchema>;

export const RoleShowResultSchema = z.object({ item: RoleItemSchema, meta: ShowMetaSchema });
export type RoleShowResult = z.infer<typeof RoleShowResultSchema>;
