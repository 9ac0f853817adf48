import { z } from 'zod';
import { AttributeFieldSchema } from '../attributes/user-attributes';
import { ActionStateSchema } from '../lists';
import { RoleOptionSchema } from '../users/users.new';
import type { ImportMode } from './imports';

const modes = { create: ActionStateSchema, upsert: ActionStateSchema } satisfies Record<ImportMode, unknown>;

/**
 * GET /users/imports/new: the import's choices as the server decides them for the caller — each
 * mode and option allowed, or not with the code and sentence the submission would refuse it with
 * (ActionState, as a record's `actions`), and each role that can be a default role as the create
 * form offers it (`assignable`, `reason`). POST /users/imports judges the same rules again.
 */
export const ImportNewResultSchema = z.object({
  modes: z.object(modes),
  options: z.object({
    /** `activate=false`: new accounts whose line does not say are created inactive. */
    inactive: ActionStateSchema,
    /** `restore=true`: a line naming a deleted user restores it. */
    restore: ActionStateSchema,
  }),
  defaultRoles: z.array(RoleOptionSchema),
  /**
   * The custom attributes a column can fill (`attributes.<key>` in `map`): those the caller may
   * see, as the create form offers them.
   */
  attributes: z.array(AttributeFieldSchema),
});
export type ImportNewResult = z.infer<typeof ImportNewResultSchema>;
