import { type IdInput, ROOT_ERROR_KEY, TEST_EVENT_TYPE, type WebhookDelivery } from '@app/contracts';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { newEventId } from '../../journal/event-id.js';
import { announceNewDeliveries } from '../../journal/signal.js';
import { toDeliveryItem } from './webhooks.item.js';
import { findWebhook } from './webhooks.repository.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

const inactive = () => {
  const message = 'Turn the endpoint on before sending it a test event: an inactive endpoint gets no deliveries.';
  return new AppError('VALIDATION_FAILED', message, { errors: { [ROOT_ERROR_KEY]: [message] } });
};

/**
 * POST /webhooks/{id}/test: a `webhook.test` event for this endpoint alone, whatever it subscribes
 * to, queued like any other (signed, retried, in the delivery log), so an integrator can check
 * their receiver and its signature check without changing a user. Answers 202 with the delivery.
 */
export async function sendTestEvent({ ctx, input }: WebhooksCall<IdInput>): Promise<{ item: WebhookDelivery }> {
  const { db } = ctx;
  return writeTransaction(db, async (tx) => {
    const webhook = await findWebhook(db, input.id, tx);
    if (!webhook.active) throw inactive();
    const now = new Date();
    const id = newEventId(now.getTime());
    const payload = {
      type: TEST_EVENT_TYPE,
      timestamp: now.toISOString(),
      data: {
        webhook: { id: webhook.id, url: webhook.url },
        requested_by: { id: ctx.actor.id, name: ctx.actor.name },
        message: 'A test event: nothing changed. Answer with a 2xx status to mark it delivered.',
      },
    };
    await db.models.WebhookEvent.create(
      { id, type: TEST_EVENT_TYPE, payload: JSON.stringify(payload), created_at: now },
      { transaction: tx },
    );
    const delivery = await db.models.WebhookDelivery.create(
      {
        webhook_id: webhook.id,
        event_id: id,
        event_type: TEST_EVENT_TYPE,
        status: 'pending',
        next_attempt_at: now,
        created_at: now,
      },
      { transaction: tx },
    );
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'webhook.test',
      targetType: 'webhook',
      targetIds: [webhook.id],
      context: { delivery_id: delivery.id, event_id: id },
    });
    tx.afterCommit(announceNewDeliveries);
    return { item: toDeliveryItem(delivery) };
  });
}
