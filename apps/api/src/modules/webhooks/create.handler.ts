import { ROOT_ERROR_KEY, WEBHOOKS_MAX, type WebhookCreated, type WebhookInput } from '@app/contracts';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { toWebhookItem } from './webhooks.item.js';
import { secretKeysOf } from '../../webhooks/settings.js';
import { sealSecret } from '../../webhooks/secret-box.js';
import { newWebhookSecret } from './webhooks.secret.js';
import { assertDeliverableUrl } from './webhooks.url.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

const tooMany = () => {
  const message = `There can be at most ${WEBHOOKS_MAX} webhooks: delete one you no longer use first.`;
  return new AppError('VALIDATION_FAILED', message, { errors: { [ROOT_ERROR_KEY]: [message] } });
};

/** The fields of an endpoint its audit rows show (never the secret). */
export const auditedFields = (w: {
  url: string;
  description: string;
  events: string[];
  active: boolean;
  include_personal: boolean;
}) => ({
  url: w.url,
  description: w.description,
  events: w.events,
  active: w.active,
  include_personal: w.include_personal,
});

/** POST /webhooks: 201 with the endpoint and its signing secret, shown this once. */
export async function createWebhook({ ctx, input }: WebhooksCall<WebhookInput>): Promise<WebhookCreated> {
  const { db } = ctx;
  assertDeliverableUrl(input.url, ctx.config.WEBHOOKS_ALLOW_PRIVATE);
  const secret = newWebhookSecret();
  return writeTransaction(db, async (tx) => {
    if ((await db.models.Webhook.count({ transaction: tx })) >= WEBHOOKS_MAX) throw tooMany();
    const webhook = await db.models.Webhook.create(
      {
        url: input.url,
        description: input.description,
        events: input.events,
        active: input.active,
        include_personal: input.include_personal,
        secret: sealSecret(secret, secretKeysOf(ctx.config)),
        created_by: ctx.actor.id,
      },
      { transaction: tx },
    );
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'webhook.create',
      targetType: 'webhook',
      targetIds: [webhook.id],
      changes: diff(null, auditedFields(input)),
    });
    return { item: toWebhookItem(webhook, ctx.actor.name), secret };
  });
}
