import type { IdInput } from '@app/contracts';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { auditedFields } from './create.handler.js';
import { deleteDeliveriesOf, findWebhook } from './webhooks.repository.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

/**
 * DELETE /webhooks/{id}: the endpoint, its deliveries and their log go together. A dispatcher
 * sending one of them right now finds it gone when it records the outcome, and nothing follows.
 */
export async function deleteWebhook({ ctx, input }: WebhooksCall<IdInput>): Promise<void> {
  const { db } = ctx;
  await writeTransaction(db, async (tx) => {
    const webhook = await findWebhook(db, input.id, tx);
    await deleteDeliveriesOf(db, tx, webhook.id);
    await webhook.destroy({ transaction: tx });
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'webhook.delete',
      targetType: 'webhook',
      targetIds: [webhook.id],
      changes: diff(auditedFields({ ...webhook.get(), active: Boolean(webhook.active) }), null),
    });
  });
}
