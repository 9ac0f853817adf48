import type { IdInput, WebhookDeliveriesListQuery, WebhookDeliveryList } from '@app/contracts';
import { Op } from 'sequelize';
import { listPage, readListPage } from '../../query/list-page.js';
import { deliveriesMapping } from './deliveries.mapping.js';
import { toDeliveryItem } from './webhooks.item.js';
import { findWebhook } from './webhooks.repository.js';
import type { WebhooksCall } from './webhooks.handler-types.js';

/**
 * GET /webhooks/{id}/deliveries: one endpoint's delivery log, newest first, through the list
 * engine (status and event filters, `q` for an event id), read by the `(webhook_id, …, id)` indexes.
 */
export async function listDeliveries({
  ctx,
  input,
}: WebhooksCall<IdInput & WebhookDeliveriesListQuery>): Promise<WebhookDeliveryList> {
  const { db } = ctx;
  await findWebhook(db, input.id);
  const model = db.models.WebhookDelivery;
  const { ids, counted } = await readListPage(db, model, deliveriesMapping, input, { webhook_id: input.id });
  const found = ids.length ? await model.findAll({ where: { id: { [Op.in]: ids } } }) : [];
  const byId = new Map(found.map((r) => [r.id, r]));
  const rows = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toDeliveryItem(row)] : [];
  });
  return listPage(input, counted, ids, rows);
}
