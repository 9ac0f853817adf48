import { z } from 'zod';
import { IdSchema, IsoDateTimeSchema } from './common';

/** The states of a user's latest invitation (SPEC §14): sent and still open, accepted, or past its time. */
export const INVITATION_STATES = ['pending', 'accepted', 'expired'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/** A user's latest invitation, as the user page shows it; null when never invited. */
export const InvitationStatusSchema = z.object({
  state: z.enum(INVITATION_STATES),
  sent_at: IsoDateTimeSchema,
  expires_at: IsoDateTimeSchema,
});
export type InvitationStatus = z.infer<typeof InvitationStatusSchema>;

/**
 * POST /users/{id}/invite (202): the invitation sent, or — without mail (no SMTP_URL) — `url`, the
 * link for the administrator to pass on, and `sent: false`.
 */
export const InviteAnswerSchema = z.object({
  invitation: z.object({ user_id: IdSchema, expires_at: IsoDateTimeSchema, sent: z.boolean() }),
  url: z.string().optional(),
});
export type InviteAnswer = z.infer<typeof InviteAnswerSchema>;
