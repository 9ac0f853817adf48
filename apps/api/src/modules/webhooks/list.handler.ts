import type { WebhookListSchema } from '@app/contracts';
import type { z } from 'zod';
import { creatorNames } from './webhooks.repository.js';
import { toWebhookItem } from './webhooks.item.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

/** GET /webhooks: every endpoint (at most WEBHOOKS_MAX), oldest first. */
export async function listWebhooks({ ctx }: WebhooksCall<void>): Promise<z.infer<typeof WebhookListSchema>> {
  const webhooks = await ctx.db.models.Webhook.findAll({ order: [['id', 'ASC']] });
  const names = await creatorNames(ctx.db, webhooks);
  return {
    items: webhooks.map((w) => toWebhookItem(w, w.created_by === null ? null : (names.get(w.created_by) ?? null))),
  };
}
