import { createHash } from 'node:crypto';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { inWriteTurn } from '../db/transaction.js';
import type { Session } from '../db/models/index.js';
import { hashSecret, newSecret } from './secrets.js';

export const SESSION_COOKIE = 'sid';

/** last_seen_at is written at most this often: a busy admin doesn't cost a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * How a sign-in met a second factor, kept on its session: a TOTP code, a recovery code, or the
 * identity provider of a single sign-on saying it asked for one (`amr`).
 */
export type SecondFactor = 'totp' | 'recovery' | 'provider';

export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

export const sessionLimits = (config: AppConfig): SessionLimits => ({
  idleMs: config.SESSION_IDLE_MINUTES * 60_000,
  absoluteMs: config.SESSION_ABSOLUTE_HOURS * 3_600_000,
});

/** Starts a session; returns the cookie value (the only time it exists outside the browser). */
export async function createSession(
  db: Database,
  userId: number,
  limits: SessionLimits,
  client: { ip: string | null; userAgent: string | null },
  now = new Date(),
  secondFactor: SecondFactor | null = null,
  tx?: Transaction,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecret();
  const expiresAt = new Date(now.getTime() + limits.absoluteMs);
  const row = {
    id: hashSecret(token),
    user_id: userId,
    ip: client.ip,
    user_agent: client.userAgent?.slice(0, 255) ?? null,
    created_at: now,
    last_seen_at: now,
    expires_at: expiresAt,
    second_factor: secondFactor,
  };
  // Inside the caller's transaction (a sign-in writes its session, stamp and audit row in one
  // write turn), or in a turn of its own.
  if (tx) await db.models.Session.create(row, { transaction: tx });
  else await inWriteTurn(db, () => db.models.Session.create(row));
  return { token, expiresAt };
}

/** The stored key of a cookie value (its hash). */
export const sessionIdOf = (token: string): string => hashSecret(token);

/** Dates as either driver returns them: a Date (MariaDB) or its text (SQLite). */
const asDate = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));

/**
 * The user id behind a session (by its stored id, `sessionIdOf`), or null when the session is
 * unknown, past its absolute lifetime or idle too long. Expired sessions are deleted on sight.
 * A plain statement: every request from the SPA pays for it.
 */
export async function resolveSession(
  db: Database,
  id: string,
  limits: SessionLimits,
  now = new Date(),
): Promise<{ sessionId: string; userId: number; secondFactor: SecondFactor | null } | null> {
  const [session] = await db.sequelize.query<{
    user_id: number | string;
    last_seen_at: Date | string;
    expires_at: Date | string;
    second_factor: SecondFactor | null;
  }>('SELECT user_id, last_seen_at, expires_at, second_factor FROM sessions WHERE id = :id', {
    replacements: { id },
    type: QueryTypes.SELECT,
  });
  if (!session) return null;
  const idleFor = now.getTime() - asDate(session.last_seen_at).getTime();
  if (asDate(session.expires_at).getTime() <= now.getTime() || idleFor >= limits.idleMs) {
    await inWriteTurn(db, () => db.models.Session.destroy({ where: { id } }));
    return null;
  }
  if (idleFor >= TOUCH_INTERVAL_MS) {
    await inWriteTurn(db, () => db.models.Session.update({ last_seen_at: now }, { where: { id } }));
  }
  return { sessionId: id, userId: Number(session.user_id), secondFactor: session.second_factor };
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await inWriteTurn(db, () => db.models.Session.destroy({ where: { id: sessionId } }));
}

/** Sessions deleted per statement: each batch is one short write, so no sign-in waits long. */
const PURGE_BATCH = 1_000;

/**
 * Housekeeping (hourly, housekeeping/): removes sessions no request can use any more, past either
 * lifetime, in batches. Returns how many went.
 */
export async function purgeExpiredSessions(
  db: Database,
  limits: SessionLimits,
  now = new Date(),
  batch = PURGE_BATCH,
): Promise<number> {
  const where = {
    [Op.or]: [
      { expires_at: { [Op.lte]: now } },
      { last_seen_at: { [Op.lte]: new Date(now.getTime() - limits.idleMs) } },
    ],
  };
  let purged = 0;
  for (;;) {
    const rows = await db.models.Session.findAll({ attributes: ['id'], where, limit: batch, raw: true });
    if (rows.length === 0) return purged;
    const ids = rows.map((row) => row.id);
    purged += await inWriteTurn(db, () => db.models.Session.destroy({ where: { id: ids } }));
    if (rows.length < batch) return purged;
  }
}

/**
 * The public id of a session, for listing and ending it: derived one way from the stored hash,
 * so it is neither the cookie value nor the stored hash, and knowing it signs nobody in.
 */
export function sessionHandle(sessionId: string): string {
  return createHash('sha256').update(`session-handle:${sessionId}`).digest('base64url').slice(0, 22);
}

/** The sessions of a user that a request could still use (within both lifetimes), most recently seen first. */
export async function usableSessions(
  db: Database,
  userId: number,
  limits: SessionLimits,
  tx: Transaction | null = null,
  now = new Date(),
): Promise<Session[]> {
  return db.models.Session.findAll({
    where: {
      user_id: userId,
      expires_at: { [Op.gt]: now },
      last_seen_at: { [Op.gt]: new Date(now.getTime() - limits.idleMs) },
    },
    order: [
      ['last_seen_at', 'DESC'],
      ['created_at', 'DESC'],
    ],
    transaction: tx,
  });
}
