import { QueryTypes } from 'sequelize';
import type { Database } from './database.js';
import { inWriteTurn } from './transaction.js';

/**
 * Deletes the rows of `table` that `where` matches, `batch` rows per statement, each statement a
 * short write of its own in its turn among the writers: however many rows match (a job's 820 000
 * changed users, a file's million staged lines), no statement holds its locks — or SQLite's one
 * write lock — for long, and other writers go between them. Returns how many rows went.
 * `table` and `where` are the caller's own SQL, never input.
 */
export async function deleteInBatches(
  db: Database,
  table: string,
  where: string,
  replacements: Record<string, unknown>,
  batch: number,
): Promise<number> {
  const size = Math.max(1, Math.floor(batch));
  let total = 0;
  for (;;) {
    // BULKDELETE: both drivers answer the number of rows deleted. SQLite takes no LIMIT on a
    // DELETE (without a compile option), so it names the rows through their rowid.
    const deleted: unknown = await inWriteTurn(db, () =>
      db.sequelize.query(
        db.dialect === 'mysql'
          ? `DELETE FROM ${table} WHERE ${where} LIMIT ${size}`
          : `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT ${size})`,
        { replacements, type: QueryTypes.BULKDELETE },
      ),
    );
    total += Number(deleted);
    if (Number(deleted) < size) return total;
  }
}
