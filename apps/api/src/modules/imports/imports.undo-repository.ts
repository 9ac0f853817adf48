import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { parseJson } from '../../jobs/job-rows.js';

/** One account an import created or updated, as its undo reads it (`import_changes`). */
export interface ImportChange {
  userId: number;
  change: 'created' | 'updated';
  line: number;
  /** The account's lock version right after the import wrote it. */
  lockVersion: number;
  /** For `updated`: the changed fields as they were before. */
  before: Record<string, unknown> | null;
  /** The account's roles now (filled by the undo once it has read the account). */
  roleIds: number[];
}

/** The next `limit` changes of import `jobId` after user id `after`, in user id order. */
export async function importChangesAfter(
  db: Database,
  tx: Transaction,
  jobId: number,
  after: number,
  limit: number,
): Promise<ImportChange[]> {
  const rows = await db.sequelize.query<{
    user_id: number | string;
    change: string;
    line: number | string;
    lock_version: number | string;
    before: string | null;
  }>(
    `SELECT user_id, \`change\`, line, lock_version, \`before\` FROM import_changes
      WHERE job_id = :jobId AND user_id > :after ORDER BY user_id LIMIT :limit`,
    { replacements: { jobId, after, limit }, type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.map((r) => ({
    userId: Number(r.user_id),
    change: r.change === 'created' ? 'created' : 'updated',
    line: Number(r.line),
    lockVersion: Number(r.lock_version),
    before: r.before === null ? null : parseJson<Record<string, unknown>>(r.before, {}),
    roleIds: [],
  }));
}

export interface UndoAccount {
  id: number;
  name: string;
  email: string;
  is_active: boolean;
  deleted: boolean;
  external_id: string | null;
  lock_version: number;
  roleIds: number[];
  roleNames: string[];
}

/** The accounts `ids`, under their row locks, with their roles (ids and names). */
export async function accountsByIds(
  db: Database,
  tx: Transaction,
  ids: readonly number[],
): Promise<Map<number, UndoAccount>> {
  const found = new Map<number, UndoAccount>();
  if (ids.length === 0) return found;
  const rows = await db.sequelize.query<{
    id: number | string;
    name: string;
    email: string;
    is_active: number | boolean;
    deleted_at: Date | string | null;
    external_id: string | null;
    lock_version: number | string;
  }>(
    `SELECT id, name, email, is_active, deleted_at, external_id, lock_version FROM users WHERE id IN (:ids) ORDER BY id${
      db.dialect === 'mysql' ? ' FOR UPDATE' : ''
    }`,
    { replacements: { ids: [...ids] }, type: QueryTypes.SELECT, transaction: tx },
  );
  const roles = await db.sequelize.query<{ user_id: number | string; role_id: number | string; name: string }>(
    'SELECT ur.user_id, ur.role_id, r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id IN (:ids)',
    { replacements: { ids: [...ids] }, type: QueryTypes.SELECT, transaction: tx },
  );
  for (const r of rows) {
    const id = Number(r.id);
    const own = roles.filter((x) => Number(x.user_id) === id);
    found.set(id, {
      id,
      name: r.name,
      email: r.email,
      is_active: Boolean(Number(r.is_active)),
      deleted: r.deleted_at !== null,
      external_id: r.external_id,
      lock_version: Number(r.lock_version),
      roleIds: own.map((x) => Number(x.role_id)),
      roleNames: own.map((x) => x.name).sort(),
    });
  }
  return found;
}
