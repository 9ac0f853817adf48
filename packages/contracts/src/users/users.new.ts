import { z } from 'zod';
import { AttributeFieldSchema } from '../attributes/user-attributes';
import { NamedRefSchema } from '../common';
import { PermissionSchema } from '../permissions';

/**
 * A role offered by a user form. `assignable` is the server's anti-escalation rule for this
 * caller: it may grant or remove a role only when it holds every permission the role carries.
 * When not, `missing` names the permissions it lacks and `reason` is the sentence the write
 * would refuse with.
 */
export const RoleOptionSchema = NamedRefSchema.extend({
  assignable: z.boolean(),
  missing: z.array(z.string()).optional(),
  reason: z.string().optional(),
});
export type RoleOption = z.infer<typeof RoleOptionSchema>;

/**
 * A permission as a user form offers it to the caller as a direct grant: whether it may grant
 * (or take away) it, and when not, the sentence the write would refuse with.
 */
export const PermissionOptionSchema = z.object({
  name: PermissionSchema,
  grantable: z.boolean(),
  reason: z.string().optional(),
});
export type PermissionOption = z.infer<typeof PermissionOptionSchema>;

/**
 * GET /users/new: what the create form needs from the server — every role and every permission
 * (as a direct grant) with whether the caller may grant it, and whether it may create an account
 * inactive (users.setActive).
 */
export const UserNewResultSchema = z.object({
  options: z.object({
    roles: z.array(RoleOptionSchema),
    permissions: z.array(PermissionOptionSchema),
    /** The custom attributes the caller may see and write, as the form renders them. */
    attributes: z.array(AttributeFieldSchema),
  }),
  can: z.object({ setActive: z.boolean() }),
});
export type UserNewResult = z.infer<typeof UserNewResultSchema>;
