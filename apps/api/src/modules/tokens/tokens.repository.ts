import { type ApiToken as ApiTokenItem, isPermission } from '@app/contracts';
import { Op, type Transaction } from 'sequelize';
import { scopesOf } from '../../auth/api-tokens.js';
import type { Database } from '../../db/database.js';
import type { ApiToken } from '../../db/models/index.js';
import { toIso } from '../../db/sql-date.js';

/** A stored token as listed: never its hash. `creators` names the users who made tokens, by id. */
export function toApiToken(row: ApiToken, creators: ReadonlyMap<number, string>, now = new Date()): ApiTokenItem {
  const scopes = scopesOf(row);
  const creator = row.created_by === null ? undefined : creators.get(Number(row.created_by));
  return {
    id: row.id,
    name: row.name,
    scopes: scopes === null ? null : scopes.filter(isPermission),
    created_at: toIso(row.created_at) as string,
    expires_at: toIso(row.expires_at),
    expired: row.expires_at !== null && row.expires_at.getTime() <= now.getTime(),
    last_used_at: toIso(row.last_used_at),
    last_used_ip: row.last_used_ip,
    created_by: creator === undefined ? null : { id: Number(row.created_by), name: creator },
  };
}

/** Names of the users who made `rows`, deleted ones included; a user erased since has none. */
async function creatorNames(db: Database, rows: ApiToken[], tx: Transaction | null): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((r) => (r.created_by === null ? [] : [Number(r.created_by)])))];
  if (ids.length === 0) return new Map();
  const users = await db.models.User.findAll({
    attributes: ['id', 'name'],
    where: { id: { [Op.in]: ids } },
    paranoid: false,
    transaction: tx,
  });
  return new Map(users.map((u) => [u.id, u.name]));
}

/** Every token of a user, newest first. */
export async function tokensOf(db: Database, userId: number, tx: Transaction | null = null): Promise<ApiTokenItem[]> {
  const rows = await db.models.ApiToken.findAll({
    where: { user_id: userId },
    order: [
      ['created_at', 'DESC'],
      ['id', 'DESC'],
    ],
    transaction: tx,
  });
  const creators = await creatorNames(db, rows, tx);
  return rows.map((row) => toApiToken(row, creators));
}

export function countTokens(db: Database, tx: Transaction, userId: number): Promise<number> {
  return db.models.ApiToken.count({ where: { user_id: userId }, transaction: tx });
}

/** One token of one user, locked for its removal; null when that user has no such token. */
export function lockTokenOf(db: Database, tx: Transaction, userId: number, tokenId: number): Promise<ApiToken | null> {
  return db.models.ApiToken.findOne({ where: { id: tokenId, user_id: userId }, lock: tx.LOCK.UPDATE, transaction: tx });
}
