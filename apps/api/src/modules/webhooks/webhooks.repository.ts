import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { Webhook, WebhookDelivery } from '../../db/models/index.js';
import { notFound } from '../../errors.js';
import { toWebhookItem } from './webhooks.item.js';

/** The endpoint `id` (locked for update when `tx` is given on MySQL): 404 when there is none. */
export async function findWebhook(db: Database, id: number, tx: Transaction | null = null): Promise<Webhook> {
  const webhook = await db.models.Webhook.findByPk(id, { transaction: tx, ...(tx ? { lock: tx.LOCK.UPDATE } : {}) });
  if (!webhook) throw notFound('The webhook');
  return webhook;
}

/** A delivery of endpoint `webhookId`: 404 when it has none of that id. */
export async function findDelivery(
  db: Database,
  webhookId: number,
  deliveryId: number,
  tx: Transaction | null = null,
): Promise<WebhookDelivery> {
  const delivery = await db.models.WebhookDelivery.findOne({
    where: { id: deliveryId, webhook_id: webhookId },
    transaction: tx,
    ...(tx ? { lock: tx.LOCK.UPDATE } : {}),
  });
  if (!delivery) throw notFound('The delivery');
  return delivery;
}

/** Current names of the users who created these endpoints (a user erased since has none). */
export async function creatorNames(db: Database, webhooks: Webhook[], tx: Transaction | null = null) {
  const ids = [...new Set(webhooks.flatMap((w) => (w.created_by === null ? [] : [w.created_by])))];
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db.sequelize.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE id IN (:ids)', {
    replacements: { ids },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/** Removes an endpoint's deliveries and their attempts: none is ever sent to a deleted endpoint. */
export async function deleteDeliveriesOf(db: Database, tx: Transaction, webhookId: number) {
  await db.sequelize.query(
    'DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE webhook_id = ?)',
    { replacements: [webhookId], transaction: tx },
  );
  await db.models.WebhookDelivery.destroy({ where: { webhook_id: { [Op.eq]: webhookId } }, transaction: tx });
}

/** The endpoint as the API shows it, with its creator's current name. */
export async function webhookItemOf(db: Database, webhook: Webhook, tx: Transaction | null = null) {
  const names = await creatorNames(db, [webhook], tx);
  return toWebhookItem(webhook, webhook.created_by === null ? null : (names.get(webhook.created_by) ?? null));
}
