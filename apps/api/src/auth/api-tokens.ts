import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { hashSecret, newSecret } from './secrets.js';

/** A recognisable prefix lets secret scanners spot leaked tokens in code and logs. */
export const TOKEN_PREFIX = 'uat_';

const TOUCH_INTERVAL_MS = 60_000;

export async function createApiToken(
  db: Database,
  userId: number,
  name: string,
  expiresAt: Date | null,
  tx?: Transaction,
): Promise<{ id: number; token: string }> {
  const token = newSecret(TOKEN_PREFIX);
  const row = await db.models.ApiToken.create(
    {
      user_id: userId,
      name,
      token_hash: hashSecret(token),
      expires_at: expiresAt,
      last_used_at: null,
    },
    { transaction: tx },
  );
  return { id: row.id, token };
}

/** The user id behind a bearer token, or null when unknown or expired; records its use. */
export async function resolveApiToken(
  db: Database,
  token: string,
  now = new Date(),
): Promise<{ tokenId: number; tokenName: string; userId: number } | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const row = await db.models.ApiToken.findOne({ where: { token_hash: hashSecret(token) } });
  if (!row) return null;
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return null;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= TOUCH_INTERVAL_MS) {
    await db.models.ApiToken.update({ last_used_at: now }, { where: { id: row.id } });
  }
  return { tokenId: row.id, tokenName: row.name, userId: row.user_id };
}
