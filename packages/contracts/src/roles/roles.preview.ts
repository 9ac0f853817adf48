import { z } from 'zod';
import { IdSchema } from '../common';
import { ActionStateSchema } from '../lists';
import { PermissionSchema } from '../permissions';
import { dedupe } from '../query/normalise';

/** How many users each part of a preview names (the first by id); the counts are always exact. */
export const PREVIEW_SAMPLE = 20;

/**
 * POST /roles/{id}/preview and POST /roles/preview: the permissions the role would grant — the
 * whole set, as PUT /roles/{id} takes it (what is left out would be taken away) — and whether it
 * would require a second factor (left out: as it is, as PUT /roles/{id} takes it).
 */
export const RolePreviewInputSchema = z.object({
  permissions: z
    .array(PermissionSchema, { error: 'List the permissions the role would grant (an empty list for none).' })
    .transform(dedupe),
  require_two_factor: z.boolean({ error: 'Say true or false.' }).optional(),
});
export type RolePreviewInput = z.output<typeof RolePreviewInputSchema>;

/** A user a preview names. */
export const PreviewUserSchema = z.object({ id: IdSchema, name: z.string(), email: z.string() });
export type PreviewUser = z.infer<typeof PreviewUserSchema>;

/**
 * Who a change of one permission reaches: how many users, and the first of them by id (their
 * ids; each is named once, in the preview's `users`). No ids for a caller who may not see users.
 */
export const PermissionImpactSchema = z.object({
  permission: PermissionSchema,
  count: z.number().int().nonnegative(),
  user_ids: z.array(IdSchema).max(PREVIEW_SAMPLE),
});
export type PermissionImpact = z.infer<typeof PermissionImpactSchema>;

/** How many users a part of a preview reaches, and the first of them by id (ids, as in PermissionImpact). */
export const PreviewReachSchema = z.object({
  count: z.number().int().nonnegative(),
  user_ids: z.array(IdSchema).max(PREVIEW_SAMPLE),
});
export type PreviewReach = z.infer<typeof PreviewReachSchema>;

/**
 * What saving the set would do, nothing written: for each permission added, the members (not in
 * the trash) who do not hold it yet another way (`gains`); for each one taken away, the members
 * who would hold it no more (`losses`); the users managing accounts today who would come to be
 * outranked by a member (`outranks`); who a change of `require_two_factor` reaches
 * (`two_factor`: switched on, the active members without a confirmed second factor whom no other
 * role requires one of — `held` at enrolment from their next request; switched off, the same
 * members, held today by this role alone — `released`; both 0 when it does not change); and
 * whether the caller may save it at all (`refusal`, as the write would judge it). `users` names
 * every user the parts list, once each, by id — only for a caller holding users.view; otherwise
 * the parts are counts alone and `people` says why.
 */
export const RolePreviewSchema = z.object({
  gains: z.array(PermissionImpactSchema),
  losses: z.array(PermissionImpactSchema),
  outranks: PreviewReachSchema,
  two_factor: z.object({ held: PreviewReachSchema, released: PreviewReachSchema }),
  users: z.array(PreviewUserSchema),
  people: ActionStateSchema,
  refusal: ActionStateSchema,
});
export type RolePreview = z.infer<typeof RolePreviewSchema>;
