import type { IdInput, Webhook } from '@app/contracts';
import { findWebhook, webhookItemOf } from './webhooks.repository.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

/** GET /webhooks/{id}: one endpoint, its health included, never its secret. */
export async function showWebhook({ ctx, input }: WebhooksCall<IdInput>): Promise<{ item: Webhook }> {
  const webhook = await findWebhook(ctx.db, input.id);
  return { item: await webhookItemOf(ctx.db, webhook) };
}
