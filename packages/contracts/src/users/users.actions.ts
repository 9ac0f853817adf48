import { z } from 'zod';
import { ErrorCodeSchema } from '../errors';

/**
 * What can be done to one user record. Rows, show and edit items carry one state per action,
 * decided on the server by the same policies and rules as the writes, so a client shows what the
 * server would allow and never re-implements a rule.
 */
export const USER_RECORD_ACTIONS = ['update', 'setActive', 'delete', 'restore', 'forceDelete'] as const;
export type UserRecordAction = (typeof USER_RECORD_ACTIONS)[number];

/** Allowed, or not with the code and sentence the write itself would refuse with. */
export const ActionStateSchema = z.object({
  allowed: z.boolean(),
  code: ErrorCodeSchema.optional(),
  message: z.string().optional(),
});
export type ActionState = z.infer<typeof ActionStateSchema>;

export const UserActionsSchema = z.object({
  update: ActionStateSchema,
  setActive: ActionStateSchema,
  delete: ActionStateSchema,
  restore: ActionStateSchema,
  forceDelete: ActionStateSchema,
});
export type UserActions = z.infer<typeof UserActionsSchema>;
