import { QueryTypes } from 'sequelize';
import type { Context } from '../context.js';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { inWriteTurn } from '../db/transaction.js';
import { hashSecret, newSecret } from './secrets.js';

/** The cookie that binds a sign-in's second step to the browser that gave the password. */
export const CHALLENGE_COOKIE = 'tfa';
/** The second step must come within five minutes of the password (SPEC §14). */
const CHALLENGE_TTL_MS = 5 * 60_000;
/** Wrong codes one challenge takes before it ends: the person gives the password again. */
export const CHALLENGE_MAX_ATTEMPTS = 5;

export interface Challenge {
  id: string;
  userId: number;
}

/**
 * Starts the second step of a sign-in whose password was right: a random token in an httpOnly
 * cookie, only its hash stored, with the user it is for. No session exists until a code is given.
 */
export async function openChallenge(ctx: Context, userId: number, now = new Date()): Promise<void> {
  const token = newSecret();
  await inWriteTurn(ctx.db, () =>
    ctx.db.sequelize.getQueryInterface().bulkInsert('two_factor_challenges', [
      {
        id: hashSecret(token),
        user_id: userId,
        attempts: 0,
        created_at: sqlDate(ctx.db, now),
        expires_at: sqlDate(ctx.db, new Date(now.getTime() + CHALLENGE_TTL_MS)),
      },
    ]),
  );
  ctx.cookies.set(CHALLENGE_COOKIE, token, { maxAgeSeconds: CHALLENGE_TTL_MS / 1000 });
}

/** The challenge this client holds, while it lasts and has attempts left; null otherwise. */
export async function currentChallenge(ctx: Context, now = new Date()): Promise<Challenge | null> {
  const token = ctx.cookies.get(CHALLENGE_COOKIE);
  if (!token) return null;
  const [row] = await ctx.db.sequelize.query<{ id: string; user_id: number | string }>(
    `SELECT id, user_id FROM two_factor_challenges
      WHERE id = :id AND expires_at > :now AND attempts < :max`,
    {
      replacements: { id: hashSecret(token), now: sqlDate(ctx.db, now), max: CHALLENGE_MAX_ATTEMPTS },
      type: QueryTypes.SELECT,
    },
  );
  return row ? { id: row.id, userId: Number(row.user_id) } : null;
}

/** Counts a wrong code against the challenge (one statement: parallel guesses each take a slot). */
export async function countChallengeAttempt(ctx: Context, challenge: Challenge): Promise<void> {
  await inWriteTurn(ctx.db, () =>
    ctx.db.sequelize.query('UPDATE two_factor_challenges SET attempts = attempts + 1 WHERE id = :id', {
      replacements: { id: challenge.id },
      type: QueryTypes.UPDATE,
    }),
  );
}

/**
 * Ends a challenge: used (the person is signed in) or given up. True when this call ended it, so
 * two requests racing with the same challenge cannot both sign in.
 */
export async function endChallenge(ctx: Context, challenge: Challenge): Promise<boolean> {
  const deleted: unknown = await inWriteTurn(ctx.db, () =>
    ctx.db.sequelize.query('DELETE FROM two_factor_challenges WHERE id = :id', {
      replacements: { id: challenge.id },
      type: QueryTypes.BULKDELETE,
    }),
  );
  ctx.cookies.clear(CHALLENGE_COOKIE);
  return Number(deleted) > 0;
}

/** Housekeeping: removes the challenges past their five minutes. Returns how many went. */
export async function purgeExpiredChallenges(db: Database, now = new Date()): Promise<number> {
  const deleted: unknown = await inWriteTurn(db, () =>
    db.sequelize.query('DELETE FROM two_factor_challenges WHERE expires_at <= :now', {
      replacements: { now: sqlDate(db, now) },
      type: QueryTypes.BULKDELETE,
    }),
  );
  return Number(deleted);
}
