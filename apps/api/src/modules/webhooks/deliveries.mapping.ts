import { byKind, type ResourceMapping } from '../../query/list-query-engine.js';

/** How the delivery log's list query (webhookDeliveriesListQuery) maps onto `webhook_deliveries`. */
export const deliveriesMapping: ResourceMapping<'id', 'status' | 'event_type'> = {
  alias: 'WebhookDelivery',
  search: ['event_id'],
  sorts: { id: 'id' },
  filters: {
    status: byKind('status'),
    event_type: byKind('event_type'),
  },
};
