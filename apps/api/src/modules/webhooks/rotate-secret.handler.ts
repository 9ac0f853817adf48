import type { IdInput, WebhookCreated } from '@app/contracts';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { findWebhook, webhookItemOf } from './webhooks.repository.js';
import { secretKeysOf } from '../../webhooks/settings.js';
import { sealSecret } from '../../webhooks/secret-box.js';
import { newWebhookSecret } from './webhooks.secret.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

/**
 * POST /webhooks/{id}/rotate-secret: a new signing secret, shown this once. Every attempt from
 * now on is signed with it, redeliveries of older events included; the old one stops at once.
 */
export async function rotateWebhookSecret({ ctx, input }: WebhooksCall<IdInput>): Promise<WebhookCreated> {
  const { db } = ctx;
  const secret = newWebhookSecret();
  return writeTransaction(db, async (tx) => {
    const webhook = await findWebhook(db, input.id, tx);
    webhook.set({ secret: sealSecret(secret, secretKeysOf(ctx.config)) });
    await webhook.save({ transaction: tx });
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'webhook.rotateSecret',
      targetType: 'webhook',
      targetIds: [webhook.id],
    });
    return { item: await webhookItemOf(db, webhook, tx), secret };
  });
}
