import type { DeliveryIdInputSchema, IdInput, WebhookDelivery } from '@app/contracts';
import type { z } from 'zod';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { announceNewDeliveries } from '../../journal/signal.js';
import { toDeliveryItem } from './webhooks.item.js';
import { findDelivery, findWebhook } from './webhooks.repository.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

/**
 * POST /webhooks/{id}/deliveries/{deliveryId}/redeliver: the delivery is due again now, for one
 * more attempt with the same `webhook-id` (receivers deduplicate on it), whatever its status.
 * One still in flight is sent again too; its first outcome is then not recorded.
 */
export async function redeliver({
  ctx,
  input,
}: WebhooksCall<IdInput & z.infer<typeof DeliveryIdInputSchema>>): Promise<{ item: WebhookDelivery }> {
  const { db } = ctx;
  return writeTransaction(db, async (tx) => {
    await findWebhook(db, input.id);
    const delivery = await findDelivery(db, input.id, input.deliveryId, tx);
    delivery.set({ status: 'pending', next_attempt_at: new Date(), locked_until: null });
    await delivery.save({ transaction: tx });
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'webhook.redeliver',
      targetType: 'webhook',
      targetIds: [input.id],
      context: { delivery_id: delivery.id, event_id: delivery.event_id, event_type: delivery.event_type },
    });
    tx.afterCommit(announceNewDeliveries);
    return { item: toDeliveryItem(delivery) };
  });
}
