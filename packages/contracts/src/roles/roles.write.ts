import { z } from 'zod';
import { PermissionSchema } from '../permissions';
import { booleanish } from '../query/fields';
import { dedupe } from '../query/normalise';
import { RoleDescriptionSchema, RoleNameSchema } from './roles.create';
import { RoleItemSchema } from './roles.query';

const MISSING_VERSION = 'The version is missing. Reload the role and try again.';

/**
 * PUT /roles/{id}: the role as it should be — its name and the permissions it grants (the whole
 * list: what is left out is taken away) — and the `version` it was read at (409 when someone
 * changed it since). A description left out stays as it is; null or blank clears it.
 */
export const RoleUpdateInputSchema = z.object({
  name: RoleNameSchema,
  description: RoleDescriptionSchema.optional(),
  /** Left out: stays as it is. */
  require_two_factor: z.boolean({ error: 'Say true or false.' }).optional(),
  permissions: z
    .array(PermissionSchema, { error: 'List the permissions the role grants (an empty list for none).' })
    .transform(dedupe),
  version: z.string({ error: MISSING_VERSION }).min(1, MISSING_VERSION),
});
export type RoleUpdateInput = z.output<typeof RoleUpdateInputSchema>;

export const RoleUpdatedSchema = z.object({ item: RoleItemSchema });
export type RoleUpdated = z.infer<typeof RoleUpdatedSchema>;

/**
 * DELETE /roles/{id}?detach=true: a role given to users is deleted only when the caller says
 * so (409 ROLE_IN_USE otherwise); it is then taken from each of them in the same transaction.
 */
export const RoleDeleteQuerySchema = z.object({
  detach: booleanish(z.boolean({ error: 'detach must be true or false (1 or 0 also work).' }).default(false)),
});
export type RoleDeleteQuery = z.output<typeof RoleDeleteQuerySchema>;
