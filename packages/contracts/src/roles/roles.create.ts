import { z } from 'zod';
import { PermissionSchema } from '../permissions';
import { dedupe } from '../query/normalise';
import { plainText } from '../text';
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

/** What the role is for, in a sentence or two: one line of plain text; blank or null means none. */
export const RoleDescriptionSchema = plainText('description')
  .max(500, 'The description can be at most 500 characters long.')
  .nullable()
  .transform((text) => text || null);

/** Creating a role: its name, an optional description and the permissions it grants. */
export const RoleCreateInputSchema = z.object({
  name: RoleNameSchema,
  description: RoleDescriptionSchema.default(null),
  permissions: z.array(PermissionSchema).transform(dedupe).default([]),
  /** Members must have a second factor (SPEC §14). */
  require_two_factor: z.boolean({ error: 'Say true or false.' }).default(false),
});
export type RoleCreateInput = z.output<typeof RoleCreateInputSchema>;

export const RoleCreatedSchema = z.object({ item: RoleItemSchema });
export type RoleCreated = z.infer<typeof RoleCreatedSchema>;
