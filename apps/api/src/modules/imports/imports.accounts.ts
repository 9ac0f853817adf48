import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { insertMany, insertWithIds } from '../../db/inserted-ids.js';
import { sqlDate } from '../../db/sql-date.js';

/** An account as an import chunk's decisions, and an undo's, need it. */
export interface Account {
  id: number;
  name: string;
  email: string;
  is_active: boolean;
  deleted: boolean;
  external_id: string | null;
  lock_version: number;
  roleIds: number[];
  /** The role names, sorted (what an audit diff records). */
  roleNames: string[];
}

/** A new account, as one row of a multi-row INSERT. */
export interface NewAccount {
  name: string;
  email: string;
  passwordHash: string;
  isActive: boolean;
  externalId: string | null;
}

/**
 * The accounts holding `key`'s e-mails or ids (deleted ones too), with their roles, in id order;
 * under their row locks in a real chunk (`lock`), so nothing changes them between the decision
 * and the write.
 */
export async function readAccounts(
  db: Database,
  tx: Transaction,
  key: { emails: readonly string[] } | { ids: readonly number[] },
  lock: boolean,
): Promise<Account[]> {
  const [column, values] = 'emails' in key ? ['email', key.emails] : ['id', key.ids];
  if (values.length === 0) return [];
  const rows = await db.sequelize.query<{
    id: number | string;
    name: string;
    email: string;
    is_active: number | boolean;
    deleted_at: Date | string | null;
    external_id: string | null;
    lock_version: number | string;
  }>(
    `SELECT id, name, email, is_active, deleted_at, external_id, lock_version FROM users WHERE ${column} IN (:values) ORDER BY id${
      lock && db.dialect === 'mysql' ? ' FOR UPDATE' : ''
    }`,
    { replacements: { values: [...values] }, type: QueryTypes.SELECT, transaction: tx },
  );
  if (rows.length === 0) return [];
  const roles = await db.sequelize.query<{ user_id: number | string; role_id: number | string; name: string }>(
    'SELECT ur.user_id, ur.role_id, r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id IN (:ids)',
    { replacements: { ids: rows.map((r) => r.id) }, type: QueryTypes.SELECT, transaction: tx },
  );
  const byUser = new Map<number, Array<{ id: number; name: string }>>();
  for (const r of roles) {
    const own = byUser.get(Number(r.user_id)) ?? [];
    own.push({ id: Number(r.role_id), name: r.name });
    byUser.set(Number(r.user_id), own);
  }
  return rows.map((r) => {
    const id = Number(r.id);
    const own = byUser.get(id) ?? [];
    return {
      id,
      name: r.name,
      email: r.email,
      is_active: Boolean(Number(r.is_active)),
      deleted: r.deleted_at !== null,
      external_id: r.external_id,
      lock_version: Number(r.lock_version),
      roleIds: own.map((x) => x.id),
      roleNames: own.map((x) => x.name).sort(),
    };
  });
}

/** `readAccounts` by id. */
export async function accountsById(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
  lock: boolean,
): Promise<Map<number, Account>> {
  const accounts = await readAccounts(db, tx, { ids }, lock);
  return new Map(accounts.map((a) => [a.id, a]));
}

/** Which of `userIds` the import `jobId` already changed (in earlier chunks), with the line that did. */
export async function changedByImport(
  db: Database,
  tx: Transaction,
  jobId: number,
  userIds: readonly number[],
): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.sequelize.query<{ user_id: number | string; line: number | string }>(
    'SELECT user_id, line FROM import_changes WHERE job_id = :jobId AND user_id IN (:userIds)',
    { replacements: { jobId, userIds: [...userIds] }, type: QueryTypes.SELECT, transaction: tx },
  );
  return new Map(rows.map((r) => [Number(r.user_id), Number(r.line)]));
}

/** `readAccounts` by canonical e-mail (lower case). */
export async function accountsByEmail(
  db: Database,
  tx: Transaction,
  emails: readonly string[],
  lock: boolean,
): Promise<Map<string, Account>> {
  const accounts = await readAccounts(db, tx, { emails }, lock);
  return new Map(accounts.map((a) => [a.email.toLowerCase(), a]));
}

/** Which accounts hold each of `externalIds` (unique when set). */
export async function externalIdOwners(
  db: Database,
  tx: Transaction,
  externalIds: readonly string[],
): Promise<Map<string, number>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db.sequelize.query<{ id: number | string; external_id: string }>(
    'SELECT id, external_id FROM users WHERE external_id IN (:externalIds)',
    { replacements: { externalIds: [...externalIds] }, type: QueryTypes.SELECT, transaction: tx },
  );
  return new Map(rows.map((r) => [r.external_id, Number(r.id)]));
}

/** Rows per multi-row INSERT of users: 8 values each. */
const USERS_PER_INSERT = 500;

/** Inserts new accounts in multi-row statements; returns their ids by canonical e-mail. */
export async function insertAccounts(
  db: Database,
  tx: Transaction,
  accounts: readonly NewAccount[],
  now: Date,
): Promise<Map<string, number>> {
  const at = sqlDate(db, now);
  const ids = await insertWithIds(
    db,
    tx,
    `INSERT INTO users (name, email, password_hash, is_active, external_id, lock_version, created_at, updated_at)
     VALUES :rows`,
    accounts.map((a) => [a.name, a.email, a.passwordHash, a.isActive, a.externalId, 0, at, at]),
    USERS_PER_INSERT,
  );
  return new Map(accounts.map((a, k) => [a.email.toLowerCase(), ids[k] as number]));
}

/** Adds role assignments in multi-row statements. */
export async function insertRoleAssignments(
  db: Database,
  tx: Transaction,
  pairs: ReadonlyArray<readonly [userId: number, roleId: number]>,
): Promise<void> {
  await insertMany(
    db,
    tx,
    'INSERT INTO user_roles (user_id, role_id) VALUES :rows',
    pairs.map((p) => [...p]),
    1_000,
  );
}

/**
 * One account's fields as an import line changes them (and its roles, when the line names them).
 * A new e-mail (one not free raises the unique constraint) is the account's primary one, as a
 * form's edit makes it.
 */
export async function updateAccount(
  db: Database,
  tx: Transaction,
  id: number,
  set: { name?: string; email?: string; is_active?: boolean; external_id?: string | null; restore?: boolean },
  roles: { added: number[]; removed: number[] } | null,
  now: Date,
): Promise<void> {
  const columns: string[] = ['lock_version = lock_version + 1', 'updated_at = :now'];
  // A rename drops the name parts an identity provider sent for the old name (RENAMED).
  if (set.name !== undefined) columns.push('name = :name', 'given_name = NULL', 'family_name = NULL');
  if (set.email !== undefined) columns.push('email = :email', 'email_primary = 1');
  if (set.is_active !== undefined) columns.push('is_active = :isActive');
  if (set.external_id !== undefined) columns.push('external_id = :externalId');
  if (set.restore) columns.push('deleted_at = NULL');
  await db.sequelize.query(`UPDATE users SET ${columns.join(', ')} WHERE id = :id`, {
    replacements: {
      id,
      now: sqlDate(db, now),
      name: set.name ?? null,
      email: set.email ?? null,
      isActive: set.is_active ?? null,
      externalId: set.external_id ?? null,
    },
    transaction: tx,
  });
  if (roles?.removed.length) {
    await db.sequelize.query('DELETE FROM user_roles WHERE user_id = :id AND role_id IN (:removed)', {
      replacements: { id, removed: roles.removed },
      transaction: tx,
    });
  }
  if (roles?.added.length)
    await insertRoleAssignments(
      db,
      tx,
      roles.added.map((r) => [id, r] as const),
    );
}

/** What an import did to each account, for its undo. */
export async function recordImportChanges(
  db: Database,
  tx: Transaction,
  jobId: number,
  changes: ReadonlyArray<{
    userId: number;
    change: 'created' | 'updated';
    line: number;
    lockVersion: number;
    before: unknown;
  }>,
): Promise<void> {
  await insertMany(
    db,
    tx,
    'INSERT INTO import_changes (job_id, user_id, `change`, line, lock_version, `before`) VALUES :rows',
    changes.map((c) => [
      jobId,
      c.userId,
      c.change,
      c.line,
      c.lockVersion,
      c.before === null ? null : JSON.stringify(c.before),
    ]),
    1_000,
  );
}
