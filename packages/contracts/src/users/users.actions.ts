import { z } from 'zod';
import { ActionStateSchema } from '../lists';

/**
 * What can be done to one user record. Rows, show and edit items carry one state per action,
 * decided on the server by the same policies and rules as the writes, so a client shows what the
 * server would allow and never re-implements a rule.
 */
export const USER_RECORD_ACTIONS = ['update', 'setActive', 'delete', 'restore', 'forceDelete'] as const;
export type UserRecordAction = (typeof USER_RECORD_ACTIONS)[number];

export const UserActionsSchema = z.object({
  update: ActionStateSchema,
  setActive: ActionStateSchema,
  delete: ActionStateSchema,
  restore: ActionStateSchema,
  forceDelete: ActionStateSchema,
});
export type UserActions = z.infer<typeof UserActionsSchema>;

/**
 * What can be done to a user's sign-in access, on the user's page only (list rows keep the five
 * record actions): each decided by users.update and then the rule its write runs.
 */
export const UserSignInActionsSchema = z.object({
  /** POST /users/{id}/invite: live, active, never signed in, under the ceiling (`inviteRefusal`). */
  invite: ActionStateSchema,
  /** POST /users/{id}/password-reset: live, active, under the ceiling (`resetRefusal`). */
  sendPasswordReset: ActionStateSchema,
  /** DELETE /users/{id}/two-factor: live, under the ceiling, with a second factor to reset. */
  resetTwoFactor: ActionStateSchema,
});
export type UserSignInActions = z.infer<typeof UserSignInActionsSchema>;

/** The user page's actions: the record's five and the sign-in ones, side by side. */
export const UserShowActionsSchema = UserActionsSchema.extend(UserSignInActionsSchema.shape);
export type UserShowActions = z.infer<typeof UserShowActionsSchema>;

/**
 * Which sections of a user's page the caller gets, decided on the server: the user's sessions
 * (users.update) and API tokens (tokens.manage) while the account is not in the trash — a
 * trashed user can neither sign in nor use a token — and the account's history and sign-ins
 * (audit.view).
 */
export const UserSectionsSchema = z.object({
  sessions: z.boolean(),
  tokens: z.boolean(),
  history: z.boolean(),
});
export type UserSections = z.infer<typeof UserSectionsSchema>;
