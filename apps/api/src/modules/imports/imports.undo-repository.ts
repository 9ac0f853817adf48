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
