import {
  DeliveryIdInputSchema,
  IdInputSchema,
  WebhookCreatedSchema,
  WebhookDeliveryDetailSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookInputSchema,
  WebhookListSchema,
  WebhookSchema,
  webhookDeliveriesListQuery,
} from '@app/contracts';
import { z } from 'zod';
import { rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { createWebhook } from './create.handler.js';
import { deleteWebhook } from './delete.handler.js';
import { listDeliveries } from './deliveries.handler.js';
import { showDelivery } from './delivery.handler.js';
import { listWebhooks } from './list.handler.js';
import { redeliver } from './redeliver.handler.js';
import { rotateWebhookSecret } from './rotate-secret.handler.js';
import { showWebhook } from './show.handler.js';
import { sendTestEvent } from './test-event.handler.js';
import { updateWebhook } from './update.handler.js';

const manage = can('webhooks.manage');

/** The delivery log's list query with the endpoint's `{id}` from the path. */
const DeliveriesInputSchema = webhookDeliveriesListQuery.extend(IdInputSchema.shape);

export const webhooksRouter = router({
  list: manage
    .meta(rest('GET', '/webhooks', { summary: 'List webhook endpoints with their health' }))
    .output(WebhookListSchema)
    .query(listWebhooks),
  create: manage
    .meta(rest('POST', '/webhooks', { status: 201, summary: 'Add an endpoint; its signing secret is shown this once' }))
    .input(WebhookInputSchema)
    .output(WebhookCreatedSchema)
    .mutation(createWebhook),
  show: manage
    .meta(rest('GET', '/webhooks/{id}', { summary: 'Show one webhook endpoint' }))
    .input(IdInputSchema)
    .output(z.object({ item: WebhookSchema }))
    .query(showWebhook),
  update: manage
    .meta(rest('PUT', '/webhooks/{id}', { summary: 'Change an endpoint: URL, description, events, active' }))
    .input(IdInputSchema)
    .input(WebhookInputSchema)
    .output(z.object({ item: WebhookSchema }))
    .mutation(updateWebhook),
  delete: manage
    .meta(rest('DELETE', '/webhooks/{id}', { status: 204, summary: 'Delete an endpoint and its delivery log' }))
    .input(IdInputSchema)
    .mutation(deleteWebhook),
  rotateSecret: manage
    .meta(
      rest('POST', '/webhooks/{id}/rotate-secret', {
        summary: 'Replace the signing secret; the new one is shown this once',
      }),
    )
    .input(IdInputSchema)
    .output(WebhookCreatedSchema)
    .mutation(rotateWebhookSecret),
  test: manage
    .meta(
      rest('POST', '/webhooks/{id}/test', {
        status: 202,
        summary: 'Send the endpoint a webhook.test event (queued like any delivery)',
      }),
    )
    .input(IdInputSchema)
    .output(z.object({ item: WebhookDeliverySchema }))
    .mutation(sendTestEvent),
  deliveries: manage
    .meta(rest('GET', '/webhooks/{id}/deliveries', { summary: "An endpoint's delivery log: filter, search, page" }))
    .input(DeliveriesInputSchema)
    .output(WebhookDeliveryListSchema)
    .query(listDeliveries),
  delivery: manage
    .meta(
      rest('GET', '/webhooks/{id}/deliveries/{deliveryId}', {
        summary: 'One delivery with its body and every attempt',
      }),
    )
    .input(IdInputSchema)
    .input(DeliveryIdInputSchema)
    .output(WebhookDeliveryDetailSchema)
    .query(showDelivery),
  redeliver: manage
    .meta(rest('POST', '/webhooks/{id}/deliveries/{deliveryId}/redeliver', { summary: 'Send a delivery again now' }))
    .input(IdInputSchema)
    .input(DeliveryIdInputSchema)
    .output(z.object({ item: WebhookDeliverySchema }))
    .mutation(redeliver),
});
