import { QueryTypes } from 'sequelize';
import { recordChange } from '../../journal/journal.js';
import type { Database } from '../../db/database.js';

/** Events deleted per transaction: short enough that writers of new events never wait long. */
const BATCH = 5_000;

export interface PruneResult {
  cutoff: Date;
  deleted: number;
}

/**
 * Deletes the audit events older than `days` days, with their target rows, oldest first in
 * batches of BATCH (each its own transaction), then records the prune itself as an event, so
 * the trail says when and how far it was cut.
 */
export async function pruneAudit(
  db: Database,
  days: number,
  origin: { actorId: number | null; source?: 'cli' },
  now = new Date(),
): Promise<PruneResult> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let deleted = 0;
  for (;;) {
    const batch = await db.sequelize.query<{ id: number }>(
      'SELECT id FROM audit_logs WHERE created_at < :cutoff ORDER BY id LIMIT :limit',
      { replacements: { cutoff, limit: BATCH }, type: QueryTypes.SELECT },
    );
    if (batch.length === 0) break;
    const ids = batch.map((row) => Number(row.id));
    await db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query('DELETE FROM audit_targets WHERE audit_id IN (:ids)', {
        replacements: { ids },
        transaction,
      });
      await db.sequelize.query('DELETE FROM audit_attributes WHERE audit_id IN (:ids)', {
        replacements: { ids },
        transaction,
      });
      await db.sequelize.query('DELETE FROM audit_logs WHERE id IN (:ids)', { replacements: { ids }, transaction });
    });
    deleted += ids.length;
  }
  await recordChange(db, null, {
    ...origin,
    action: 'audit.prune',
    via: origin.source === 'cli' ? { kind: 'cli' } : null,
    context: { days, cutoff: cutoff.toISOString(), deleted },
  });
  return { cutoff, deleted };
}
