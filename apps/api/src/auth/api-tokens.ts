import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { inWriteTurn } from '../db/transaction.js';
import type { ApiToken } from '../db/models/index.js';
import { hashSecret, newSecret } from './secrets.js';

/** A recognisable prefix lets secret scanners spot leaked tokens in code and logs. */
export const TOKEN_PREFIX = 'uat_';

/** last_used_at is written at most this often (unless the caller's IP changed): a busy script doesn't cost a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

export interface NewApiToken {
  userId: number;
  name: string;
  expiresAt: Date | null;
  /** Permission names the token is narrowed to; null or absent: all of its owner's. */
  scopes?: readonly string[] | null;
  /** The user who made it (the owner or an administrator); null for the command line. */
  createdBy?: number | null;
}

/** Makes a token; the secret is returned once and only its hash is kept. */
export async function mintApiToken(
  db: Database,
  spec: NewApiToken,
  tx?: Transaction | null,
): Promise<{ row: ApiToken; token: string }> {
  const token = newSecret(TOKEN_PREFIX);
  const row = await db.models.ApiToken.create(
    {
      user_id: spec.userId,
      name: spec.name,
      token_hash: hashSecret(token),
      scopes: spec.scopes ? [...spec.scopes] : null,
      expires_at: spec.expiresAt,
      last_used_at: null,
      last_used_ip: null,
      created_by: spec.createdBy ?? null,
    },
    { transaction: tx ?? null },
  );
  return { row, token };
}

/** A token acting with all of its owner's permissions (tests, the bench). */
export async function createApiToken(
  db: Database,
  userId: number,
  name: string,
  expiresAt: Date | null,
  tx?: Transaction,
): Promise<{ id: number; token: string }> {
  const { row, token } = await mintApiToken(db, { userId, name, expiresAt }, tx);
  return { id: row.id, token };
}

/**
 * The stored scopes as a list, or null for "all of the owner's". MariaDB keeps JSON as text, so
 * a string is parsed; anything that is not a list of strings narrows to nothing rather than
 * widening to everything.
 */
export function scopesOf(row: { scopes: unknown }): string[] | null {
  let value: unknown = row.scopes;
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export interface ResolvedToken {
  tokenId: number;
  tokenName: string;
  userId: number;
  scopes: string[] | null;
}

/** `token`'s stored key (its hash), or null when it cannot be one of ours. */
export function apiTokenHash(token: string): string | null {
  return token.startsWith(TOKEN_PREFIX) ? hashSecret(token) : null;
}

/** Dates as either driver returns them: a Date (MariaDB) or its text (SQLite). */
const asDate = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

/**
 * The owner and scopes behind a bearer token (by its hash, `apiTokenHash`), or null when unknown
 * or expired. Records when and from which IP it was used: at most once a minute from one IP, at
 * once when the IP changes. A plain statement: every request with a token pays for it.
 */
export async function resolveApiToken(
  db: Database,
  tokenHash: string,
  ip: string | null,
  now = new Date(),
): Promise<ResolvedToken | null> {
  const [row] = await db.sequelize.query<{
    id: number | string;
    user_id: number | string;
    name: string;
    scopes: unknown;
    expires_at: Date | string | null;
    last_used_at: Date | string | null;
    last_used_ip: string | null;
  }>(
    'SELECT id, user_id, name, scopes, expires_at, last_used_at, last_used_ip FROM api_tokens WHERE token_hash = :tokenHash LIMIT 1',
    { replacements: { tokenHash }, type: QueryTypes.SELECT },
  );
  if (!row) return null;
  const expiresAt = asDate(row.expires_at);
  if (expiresAt && expiresAt.getTime() <= now.getTime()) return null;
  const id = Number(row.id);
  const lastUsedAt = asDate(row.last_used_at);
  const stale = !lastUsedAt || now.getTime() - lastUsedAt.getTime() >= TOUCH_INTERVAL_MS;
  if (stale || (ip !== null && ip !== row.last_used_ip)) {
    await inWriteTurn(db, () => db.models.ApiToken.update({ last_used_at: now, last_used_ip: ip }, { where: { id } }));
  }
  return { tokenId: id, tokenName: row.name, userId: Number(row.user_id), scopes: scopesOf(row) };
}

/** What a token may do now: its owner's current permissions, narrowed to its scopes when it has any. */
export function tokenPermissions(owner: ReadonlySet<string>, scopes: readonly string[] | null): ReadonlySet<string> {
  if (scopes === null) return owner;
  return new Set(scopes.filter((p) => owner.has(p)));
}
