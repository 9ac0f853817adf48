import { QueryTypes } from 'sequelize';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { writeTransaction } from '../db/transaction.js';
import { hashSecret, newSecret } from '../auth/secrets.js';

/** The browser's handle on a single sign-on under way: httpOnly, sent back by the provider's redirect. */
export const SSO_COOKIE = 'sso';

/** How long a person has at the provider before the sign-in they started is forgotten. */
export const SSO_ATTEMPT_SECONDS = 10 * 60;

export interface SsoAttempt {
  providerId: number;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * Stores a sign-in just started and answers the handle for the browser's cookie. The state,
 * nonce and PKCE verifier stay in the database (any instance can take the callback), keyed by
 * the handle's SHA-256; expired attempts are swept here, so the table holds only live ones.
 */
export async function startAttempt(db: Database, attempt: SsoAttempt, now = new Date()): Promise<string> {
  const handle = newSecret();
  const expiresAt = new Date(now.getTime() + SSO_ATTEMPT_SECONDS * 1000);
  await writeTransaction(db, async (tx) => {
    await db.sequelize.query('DELETE FROM sso_attempts WHERE expires_at <= :now', {
      replacements: { now: sqlDate(db, now) },
      transaction: tx,
    });
    await db.sequelize.query(
      `INSERT INTO sso_attempts (handle_hash, provider_id, state, nonce, code_verifier, expires_at)
       VALUES (:hash, :providerId, :state, :nonce, :verifier, :expiresAt)`,
      {
        replacements: {
          hash: hashSecret(handle),
          providerId: attempt.providerId,
          state: attempt.state,
          nonce: attempt.nonce,
          verifier: attempt.codeVerifier,
          expiresAt: sqlDate(db, expiresAt),
        },
        transaction: tx,
      },
    );
  });
  return handle;
}

/**
 * Takes the attempt this browser's handle names, once: it is deleted as it is read, so a replayed
 * callback (or two racing) finds nothing. Null when unknown, expired or for another provider.
 */
export async function takeAttempt(
  db: Database,
  handle: string | undefined,
  providerId: number,
  now = new Date(),
): Promise<SsoAttempt | null> {
  if (!handle) return null;
  const hash = hashSecret(handle);
  return writeTransaction(db, async (tx) => {
    const [row] = await db.sequelize.query<{
      provider_id: number | string;
      state: string;
      nonce: string;
      code_verifier: string;
      expires_at: Date | string;
    }>(
      `SELECT provider_id, state, nonce, code_verifier, expires_at FROM sso_attempts WHERE handle_hash = :hash
         ${db.dialect === 'mysql' ? 'FOR UPDATE' : ''}`,
      { replacements: { hash }, type: QueryTypes.SELECT, transaction: tx },
    );
    if (!row) return null;
    await db.sequelize.query('DELETE FROM sso_attempts WHERE handle_hash = :hash', {
      replacements: { hash },
      transaction: tx,
    });
    const expired = new Date(row.expires_at).getTime() <= now.getTime();
    if (expired || Number(row.provider_id) !== providerId) return null;
    return { providerId, state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier };
  });
}
