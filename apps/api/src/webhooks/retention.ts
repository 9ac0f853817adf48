import { Op } from 'sequelize';
import type { Database } from '../db/database.js';
import { writeTransaction } from '../db/transaction.js';
import { eventIdFloor } from '../journal/event-id.js';

export interface PruneResult {
  events: number;
  deliveries: number;
  attempts: number;
}

/** Events per batch: each batch is one short write transaction, so no lock is held for long. */
const BATCH = 200;

/**
 * Deletes the webhook history made before `before`: events, their deliveries (whatever their
 * status: a delivery that old is over) and their attempts. Event ids are ULIDs, so "made before"
 * is a range of the primary key, walked in batches. A delivery being sent right now is left
 * alone, and so is its event, until the next pass.
 */
export async function pruneWebhookHistory(db: Database, before: Date, batch = BATCH): Promise<PruneResult> {
  const { WebhookEvent, WebhookDelivery, WebhookAttempt } = db.models;
  const ceiling = eventIdFloor(before.getTime());
  const total: PruneResult = { events: 0, deliveries: 0, attempts: 0 };
  let after = '';
  for (;;) {
    const rows = await WebhookEvent.findAll({
      attributes: ['id'],
      where: { id: { [Op.gt]: after, [Op.lt]: ceiling } },
      order: [['id', 'ASC']],
      limit: batch,
      raw: true,
    });
    const eventIds = rows.map((row) => row.id);
    if (eventIds.length === 0) return total;
    after = eventIds.at(-1) as string;
    await writeTransaction(db, async (transaction) => {
      const deliveries = await WebhookDelivery.findAll({
        attributes: ['id'],
        where: { event_id: eventIds, status: { [Op.ne]: 'sending' } },
        raw: true,
        transaction,
      });
      const deliveryIds = deliveries.map((row) => row.id);
      if (deliveryIds.length) {
        total.attempts += await WebhookAttempt.destroy({ where: { delivery_id: deliveryIds }, transaction });
        total.deliveries += await WebhookDelivery.destroy({ where: { id: deliveryIds }, transaction });
      }
      const kept = await WebhookDelivery.findAll({
        attributes: ['event_id'],
        where: { event_id: eventIds },
        group: ['event_id'],
        raw: true,
        transaction,
      });
      const keep = new Set(kept.map((row) => row.event_id));
      const gone = eventIds.filter((id) => !keep.has(id));
      if (gone.length) total.events += await WebhookEvent.destroy({ where: { id: gone }, transaction });
    });
  }
}
