import { QueryTypes } from 'sequelize';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { deleteInBatches } from '../db/delete-in-batches.js';
import { inWriteTurn } from '../db/transaction.js';

/** An upload no job took (its request failed or was cut) is dropped after this long. */
const ORPHAN_AFTER_MS = 3_600_000;
/** Staged lines deleted per statement: each a short write of its own. */
const BATCH = 10_000;

/**
 * Drops the staged lines of imports that no longer need them: uploads whose job has finished
 * (its report and undo record keep what matters), and uploads no job took within an hour.
 * Returns how many uploads went.
 */
export async function pruneImportUploads(db: Database, now = new Date()): Promise<number> {
  const uploads = await db.sequelize.query<{ id: number | string }>(
    `SELECT u.id FROM import_uploads u LEFT JOIN jobs j ON j.id = u.job_id
      WHERE (u.job_id IS NULL AND u.created_at < :orphaned) OR j.finished_at IS NOT NULL
         OR (u.job_id IS NOT NULL AND j.id IS NULL)`,
    { replacements: { orphaned: sqlDate(db, new Date(now.getTime() - ORPHAN_AFTER_MS)) }, type: QueryTypes.SELECT },
  );
  for (const { id } of uploads) await dropUpload(db, Number(id));
  return uploads.length;
}

/** An upload's staged lines, a slice at a time, then the upload itself. */
export async function dropUpload(db: Database, uploadId: number): Promise<void> {
  await deleteInBatches(db, 'import_rows', 'upload_id = :uploadId', { uploadId }, BATCH);
  await inWriteTurn(db, () =>
    db.sequelize.query('DELETE FROM import_uploads WHERE id = :uploadId', { replacements: { uploadId } }),
  );
}
