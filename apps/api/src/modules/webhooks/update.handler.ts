import type { IdInput, Webhook, WebhookInput } from '@app/contracts';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { auditedFields } from './create.handler.js';
import { findWebhook, webhookItemOf } from './webhooks.repository.js';
import { assertDeliverableUrl } from './webhooks.url.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

/** A fresh start: an endpoint turned (back) on is judged on what it does from now. */
const HEALTHY = {
  disabled_reason: null,
  failing_since: null,
  consecutive_failures: 0,
  circuit_open_until: null,
  circuit_opens: 0,
};

/**
 * PUT /webhooks/{id}: URL, description, events, the active flag and whether personal attribute
 * values are sent, all replaced. Turning an
 * endpoint on again clears what the dispatcher held against it (its failing streak, an open
 * circuit, the reason it was switched off); its waiting deliveries then go out.
 */
export async function updateWebhook({ ctx, input }: WebhooksCall<IdInput & WebhookInput>): Promise<{ item: Webhook }> {
  const { db } = ctx;
  assertDeliverableUrl(input.url, ctx.config.WEBHOOKS_ALLOW_PRIVATE);
  return writeTransaction(db, async (tx) => {
    const webhook = await findWebhook(db, input.id, tx);
    const before = auditedFields({
      ...webhook.get(),
      active: Boolean(webhook.active),
      include_personal: Boolean(webhook.include_personal),
    });
    const reactivated = input.active && !webhook.active;
    webhook.set({
      url: input.url,
      description: input.description,
      events: input.events,
      active: input.active,
      include_personal: input.include_personal,
      ...(reactivated ? HEALTHY : {}),
    });
    await webhook.save({ transaction: tx });
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'webhook.update',
      targetType: 'webhook',
      targetIds: [webhook.id],
      changes: diff(before, auditedFields(input)),
    });
    return { item: await webhookItemOf(db, webhook, tx) };
  });
}
