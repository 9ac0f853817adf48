import { QueryTypes } from 'sequelize';
import { TWO_FACTOR_COLUMNS, type TwoFactorFacts, toTwoFactorFacts } from '../auth/actor.js';
import type { Database } from '../db/database.js';
import type { TwoFactorFacts as StoredFacts } from '../domain/two-factor.js';

/**
 * A user's second factor as their page shows it and as its reset judges it: confirmed and
 * required (the columns /auth/me reads), and whether a secret is stored at all (what DELETE
 * /users/{id}/two-factor needs: a set-up still waiting for its code can be reset too). One read;
 * never the secret itself.
 */
export async function readTwoFactorFacts(db: Database, userId: number): Promise<TwoFactorFacts & StoredFacts> {
  const [row] = await db.sequelize.query<{
    enrolled: number | string;
    required: number | string;
    has_secret: number | string;
  }>(
    `SELECT ${TWO_FACTOR_COLUMNS},
            CASE WHEN two_factor_secret IS NULL THEN 0 ELSE 1 END AS has_secret
       FROM users WHERE id = :userId`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  if (!row) return { enrolled: false, required: false, hasSecret: false };
  return { ...toTwoFactorFacts(row), hasSecret: Number(row.has_secret) === 1 };
}
