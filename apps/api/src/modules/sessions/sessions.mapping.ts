import type { SessionInfo } from '@app/contracts';
import type { AuthMethod } from '../../auth/actor.js';
import { sessionHandle } from '../../auth/sessions.js';
import type { Session } from '../../db/models/index.js';
import { toIso } from '../../db/sql-date.js';

/** The session this request came with, if it came with one. */
export const currentSessionId = (auth: AuthMethod | null): string | null =>
  auth?.via === 'session' ? auth.sessionId : null;

/** A stored session as listed: its public handle, never the cookie value or the stored hash. */
export function toSessionInfo(row: Session, current: string | null): SessionInfo {
  return {
    id: sessionHandle(row.id),
    user_agent: row.user_agent,
    ip: row.ip,
    created_at: toIso(row.created_at) as string,
    last_seen_at: toIso(row.last_seen_at) as string,
    expires_at: toIso(row.expires_at) as string,
    current: row.id === current,
  };
}
