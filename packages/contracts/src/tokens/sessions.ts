import { z } from 'zod';
import { IsoDateTimeSchema } from '../common';

/**
 * A signed-in browser session. `id` is a public handle derived from the stored hash (never the
 * cookie value nor the stored hash), usable only to end that session.
 */
export const SessionInfoSchema = z.object({
  id: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  last_seen_at: IsoDateTimeSchema,
  expires_at: IsoDateTimeSchema,
  /** The session this very request came with. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const SessionListSchema = z.object({ items: z.array(SessionInfoSchema) });
export type SessionList = z.infer<typeof SessionListSchema>;

export const SessionIdInputSchema = z.object({
  sessionId: z.string({ error: 'Give a session id.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'That is not a session id.'),
});
export type SessionIdInput = z.infer<typeof SessionIdInputSchema>;

/** How many sessions an "end them" request ended. */
export const SessionsRevokedSchema = z.object({ revoked: z.number().int().nonnegative() });
export type SessionsRevoked = z.infer<typeof SessionsRevokedSchema>;
