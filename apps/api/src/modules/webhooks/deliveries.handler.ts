import {
  type IdInput,
  LIST_COUNT_BOUND,
  type WebhookDeliveriesListQuery,
  type WebhookDeliveryList,
} from '@app/contracts';
import { Op } from 'sequelize';
import { orderFor, whereFor } from '../../query/list-query-engine.js';
import { countUpTo, pageIdsOf } from '../../query/list-reads.js';
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
  const where = { [Op.and]: [{ webhook_id: input.id }, whereFor(db, deliveriesMapping, input)] };
  const offset = (input.page - 1) * input.perPage;
  const [ids, counted] = await Promise.all([
    pageIdsOf(model, where, orderFor(deliveriesMapping, input), input.perPage, offset),
    countUpTo(db, model, where, LIST_COUNT_BOUND + 1),
  ]);
  const exact = counted <= LIST_COUNT_BOUND;
  // A page past the bound proves at least its own rows: a lower bound never says less.
  const total = exact ? counted : Math.max(LIST_COUNT_BOUND, offset + ids.length);
  const rows = ids.length ? await model.findAll({ where: { id: { [Op.in]: ids } } }) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    items: ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toDeliveryItem(row)] : [];
    }),
    meta: {
      page: input.page,
      perPage: input.perPage,
      total,
      totalExact: exact,
      pageCount: Math.ceil(total / input.perPage),
    },
  };
}
