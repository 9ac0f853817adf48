import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { hashSecret, newSecret } from './secrets.js';

/**
 * The single-use links mail carries (migration 0019): an invitation, a password reset. The token
 * is handed out once, in the mail or to the administrator who copies it; the database keeps its
 * SHA-256 only. A link works once, until it expires, and not after it was voided — by a newer link
 * of its kind, a password change or a deactivation.
 */
export type LinkPurpose = 'invitation' | 'password_reset';

const IDS_PER_STATEMENT = 1000;

export interface IssuedLink {
  token: string;
  expiresAt: Date;
}

/** A new link for `userId`, voiding the user's earlier open links of the same purpose. */
export async function issueLink(
  db: Database,
  tx: Transaction,
  link: { userId: number; purpose: LinkPurpose; ttlMs: number; createdBy: number | null },
  now = new Date(),
): Promise<IssuedLink> {
  const [issued] = await issueLinks(db, tx, { ...link, userIds: [link.userId] }, now);
  if (!issued) throw new Error('a link was asked for and not issued');
  return issued;
}

/** Rows per INSERT: a bulk invitation's chunk in a few statements, under every engine's limits. */
const ROWS_PER_INSERT = 500;

/**
 * A new link for each of `userIds` (in that order), voiding their earlier open links of the same
 * purpose: one UPDATE and a multi-row INSERT per few hundred users, so a bulk invitation's chunk
 * costs a handful of statements rather than two per user.
 */
export async function issueLinks(
  db: Database,
  tx: Transaction,
  links: { userIds: readonly number[]; purpose: LinkPurpose; ttlMs: number; createdBy: number | null },
  now = new Date(),
): Promise<(IssuedLink & { userId: number })[]> {
  const { userIds, purpose, createdBy } = links;
  if (userIds.length === 0) return [];
  await voidLinks(db, tx, userIds, [purpose], now);
  const expiresAt = new Date(now.getTime() + links.ttlMs);
  const at = sqlDate(db, now);
  const until = sqlDate(db, expiresAt);
  const issued = userIds.map((userId) => ({ userId, token: newSecret(), expiresAt }));
  for (let i = 0; i < issued.length; i += ROWS_PER_INSERT) {
    const part = issued.slice(i, i + ROWS_PER_INSERT);
    await db.sequelize.query(
      `INSERT INTO user_links (user_id, purpose, token_hash, created_by, created_at, expires_at)
       VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
      {
        replacements: part.flatMap((l) => [l.userId, purpose, hashSecret(l.token), createdBy, at, until]),
        type: QueryTypes.INSERT,
        transaction: tx,
      },
    );
  }
  return issued;
}

/** The link a token names, if it is of `purpose` and still works; locked until the transaction ends. */
export async function usableLink(
  db: Database,
  tx: Transaction,
  token: string,
  purpose: LinkPurpose,
  now = new Date(),
): Promise<{ id: number; userId: number } | null> {
  const [row] = await db.sequelize.query<{ id: number | string; user_id: number | string }>(
    `SELECT id, user_id FROM user_links
      WHERE token_hash = :hash AND purpose = :purpose AND used_at IS NULL AND voided_at IS NULL AND expires_at > :now
      ${db.dialect === 'mysql' ? 'FOR UPDATE' : ''}`,
    {
      replacements: { hash: hashSecret(token), purpose, now: sqlDate(db, now) },
      type: QueryTypes.SELECT,
      transaction: tx,
    },
  );
  return row ? { id: Number(row.id), userId: Number(row.user_id) } : null;
}

/** Marks a link used: it never works again. */
export async function useLink(db: Database, tx: Transaction, id: number, now = new Date()): Promise<void> {
  await db.sequelize.query('UPDATE user_links SET used_at = :now WHERE id = :id', {
    replacements: { id, now: sqlDate(db, now) },
    transaction: tx,
  });
}

/**
 * Voids the open links of these users (of `purposes`, or every kind): a password change, a
 * deactivation, a deletion. A pending invitation voided so ends now: the list no longer counts it
 * as pending, and the user page shows it expired.
 */
export async function voidLinks(
  db: Database,
  tx: Transaction,
  userIds: readonly number[],
  purposes: readonly LinkPurpose[] | null = null,
  now = new Date(),
): Promise<void> {
  if (userIds.length === 0) return;
  const at = sqlDate(db, now);
  for (let i = 0; i < userIds.length; i += IDS_PER_STATEMENT) {
    const part = userIds.slice(i, i + IDS_PER_STATEMENT);
    await db.sequelize.query(
      `UPDATE user_links SET voided_at = :now
        WHERE user_id IN (:ids) AND used_at IS NULL AND voided_at IS NULL${purposes ? ' AND purpose IN (:purposes)' : ''}`,
      { replacements: { ids: part, purposes: purposes ? [...purposes] : [], now: at }, transaction: tx },
    );
    if (purposes && !purposes.includes('invitation')) continue;
    await db.sequelize.query(
      `UPDATE users SET invitation_expires_at = :now
        WHERE id IN (:ids) AND invitation_accepted_at IS NULL AND invitation_expires_at > :now`,
      { replacements: { ids: part, now: at }, transaction: tx },
    );
  }
}
