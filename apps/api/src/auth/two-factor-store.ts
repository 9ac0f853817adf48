import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { inWriteTurn } from '../db/transaction.js';

/**
 * A user's second factor as stored (migration 0020). The columns live outside the User model on
 * purpose: no model read, serialiser or audit diff can carry the secret by accident.
 */
export interface StoredTwoFactor {
  /** Sealed with SECRETS_KEY (modules/two-factor/second-factor.ts); null when there is none. */
  sealedSecret: string | null;
  enrolled: boolean;
  /** The time step of the last code accepted. */
  lastStep: number | null;
}

export async function readTwoFactor(db: Database, tx: Transaction | null, userId: number): Promise<StoredTwoFactor> {
  const [row] = await db.sequelize.query<{
    two_factor_secret: string | null;
    two_factor_enrolled_at: unknown;
    two_factor_last_step: number | string | null;
  }>('SELECT two_factor_secret, two_factor_enrolled_at, two_factor_last_step FROM users WHERE id = :userId', {
    replacements: { userId },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return {
    sealedSecret: row?.two_factor_secret ?? null,
    enrolled: row?.two_factor_enrolled_at != null,
    lastStep: row?.two_factor_last_step == null ? null : Number(row.two_factor_last_step),
  };
}

/** Sets (`secret`) or clears (null) the second factor: a new secret waits for its confirmation; the recovery codes go either way. */
export async function replaceTwoFactor(
  db: Database,
  tx: Transaction,
  userId: number,
  sealedSecret: string | null,
): Promise<void> {
  await db.sequelize.query(
    `UPDATE users SET two_factor_secret = :sealedSecret, two_factor_enrolled_at = NULL, two_factor_last_step = NULL
      WHERE id = :userId`,
    { replacements: { userId, sealedSecret }, transaction: tx },
  );
  await db.sequelize.query('DELETE FROM two_factor_recovery_codes WHERE user_id = :userId', {
    replacements: { userId },
    transaction: tx,
  });
}

/** Confirms the pending enrolment: enrolled now, its code's step used, the recovery codes' hashes kept. */
export async function confirmTwoFactor(
  db: Database,
  tx: Transaction,
  userId: number,
  step: number,
  codeHashes: readonly string[],
  now: Date,
): Promise<void> {
  await db.sequelize.query(
    'UPDATE users SET two_factor_enrolled_at = :now, two_factor_last_step = :step WHERE id = :userId',
    { replacements: { userId, step, now: sqlDate(db, now) }, transaction: tx },
  );
  await db.sequelize.getQueryInterface().bulkInsert(
    'two_factor_recovery_codes',
    codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })),
    { transaction: tx },
  );
}

/**
 * Takes `step` as the last one used, unless it or a later one was taken already: one statement,
 * so two requests racing with the same code cannot both be accepted. True when taken.
 */
export async function takeStep(db: Database, tx: Transaction | null, userId: number, step: number): Promise<boolean> {
  const run = () =>
    db.sequelize.query(
      `UPDATE users SET two_factor_last_step = :step
        WHERE id = :userId AND two_factor_enrolled_at IS NOT NULL
          AND (two_factor_last_step IS NULL OR two_factor_last_step < :step)`,
      { replacements: { userId, step }, type: QueryTypes.UPDATE, transaction: tx },
    );
  const [, affected] = tx ? await run() : await inWriteTurn(db, run);
  return Number(affected) === 1;
}

/** Marks an unused recovery code of the user used; true when there was one. */
export async function useRecoveryCode(
  db: Database,
  tx: Transaction | null,
  userId: number,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const run = () =>
    db.sequelize.query(
      `UPDATE two_factor_recovery_codes SET used_at = :now
        WHERE user_id = :userId AND code_hash = :codeHash AND used_at IS NULL`,
      { replacements: { userId, codeHash, now: sqlDate(db, now) }, type: QueryTypes.UPDATE, transaction: tx },
    );
  const [, affected] = tx ? await run() : await inWriteTurn(db, run);
  return Number(affected) > 0;
}
