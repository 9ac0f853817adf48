import { z } from 'zod';
import { PermissionSchema } from '../permissions';
import { dedupe } from '../query/normalise';
import { RoleItemSchema } from './roles.query';

/**
 * A role's name: letters, digits, ".", "-" and "_", at most 100 characters (it is shown in
 * lists and badges, and given on the command line). Unique whatever its case.
 */
export const RoleNameSchema = z
  .string({ error: 'Give the role a name.' })
  .trim()
  .min(1, 'Give the role a name.')
  .max(100, 'The name can be at most 100 characters long.')
  .regex(/^[\w.-]+$/, 'A role name may contain only letters, digits, ".", "-" and "_".');

/** Creating a role: its name and the permissions it grants (each listed once). */
export const RoleCreateInputSchema = z.object({
  name: RoleNameSchema,
  permissions: z.array(PermissionSchema).transform(dedupe).default([]),
});
export type RoleCreateInput = z.output<typeof RoleCreateInputSchema>;

export const RoleCreatedSchema = z.object({ item: RoleItemSchema });
export type RoleCreated = z.infer<typeof RoleCreatedSchema>;
