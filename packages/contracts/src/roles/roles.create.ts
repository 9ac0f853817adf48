import { z } from 'zod';
import { PermissionSchema } from '../permissions';
import { dedupe } from '../query/normalise';
import { plainText } from '../text';
import { RoleNameSchema } from './role-name';
import { RoleItemSchema } from './roles.query';

// The name rule has a file of its own: the import options use it, and errors.ts imports those.
export * from './role-name';

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
