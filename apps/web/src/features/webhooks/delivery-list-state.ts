import { type DeliveredEventType, type DeliveryStatus, webhookDeliveriesListQuery } from '@app/contracts';
import { listStateCodec } from '../../lib/resource-list/list-state';

/** The delivery log's filters as the URL and the API take them, only the ones in force. */
export interface DeliveryListFilters {
  status?: DeliveryStatus[];
  event_type?: DeliveredEventType[];
}

export type DeliverySort = (typeof webhookDeliveriesListQuery.sorts)[number];

export const DELIVERY_PER_PAGE_OPTIONS: readonly number[] = webhookDeliveriesListQuery.perPage.choices ?? [
  webhookDeliveriesListQuery.perPage.default,
];

type Parsed = ReturnType<typeof webhookDeliveriesListQuery.input.parse>;

function toStateFilters(filters: Parsed['filters']): DeliveryListFilters {
  const out: DeliveryListFilters = {};
  if (filters.status) out.status = filters.status.values;
  if (filters.event_type) out.event_type = filters.event_type.values;
  return out;
}

/** The delivery log's state in the endpoint page's URL (`?filters[status][]=failed&page=2`). */
export const DELIVERY_LIST_CODEC = listStateCodec<DeliverySort, DeliveryListFilters, typeof webhookDeliveriesListQuery>(
  webhookDeliveriesListQuery,
  toStateFilters,
);
