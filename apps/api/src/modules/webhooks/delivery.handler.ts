import type { DeliveryIdInputSchema, IdInput, WebhookDeliveryDetail } from '@app/contracts';
import type { z } from 'zod';
import { toAttemptItem, toDeliveryItem } from './webhooks.item.js';
import { findDelivery } from './webhooks.repository.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

type Json = WebhookDeliveryDetail['item']['payload'];

/** GET /webhooks/{id}/deliveries/{deliveryId}: the delivery, the body it sends, and every attempt. */
export async function showDelivery({
  ctx,
  input,
}: WebhooksCall<IdInput & z.infer<typeof DeliveryIdInputSchema>>): Promise<WebhookDeliveryDetail> {
  const { db } = ctx;
  const delivery = await findDelivery(db, input.id, input.deliveryId);
  const [event, attempts] = await Promise.all([
    db.models.WebhookEvent.findByPk(delivery.event_id),
    db.models.WebhookAttempt.findAll({
      where: { delivery_id: delivery.id },
      order: [
        ['attempt', 'ASC'],
        ['id', 'ASC'],
      ],
    }),
  ]);
  return {
    item: {
      ...toDeliveryItem(delivery),
      payload: event ? (JSON.parse(event.payload) as Json) : null,
      attempts_log: attempts.map(toAttemptItem),
    },
  };
}
