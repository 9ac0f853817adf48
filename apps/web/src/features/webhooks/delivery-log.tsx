import { DELIVERED_EVENT_TYPES, DELIVERY_STATUSES, type WebhookDeliveryList } from '@app/contracts';
import { CardDescription, CardHeader, CardTitle } from '@app/ui';
import { Send } from 'lucide-react';
import { useMemo } from 'react';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';
import { ResourceListView } from '../../lib/resource-list/resource-list-view';
import { ToggleChips } from '../../lib/resource-list/toggle-chips';
import { useResourceList } from '../../lib/resource-list/use-resource-list';
import { useTRPC } from '../../lib/trpc';
import { deliveryColumns } from './delivery-columns';
import { deliveryList } from './delivery-list-state';
import { eventLabel } from './webhook-status';

const rowsOf = (data: WebhookDeliveryList) => data.rows;

/**
 * An endpoint's delivery log: newest first, filtered by status and event with chips, found by
 * event id, a page at a time. Its state lives in the URL like every other list's.
 */
export function DeliveryLog({ webhookId, className }: { webhookId: number; className?: string }) {
  const m = useWebhooksMessages();
  const t = m.webhooks.deliveries;
  const trpc = useTRPC();
  const columns = useMemo(() => deliveryColumns(m, webhookId), [m, webhookId]);
  const deliveries = useResourceList(deliveryList, {
    query: (input) =>
      trpc.webhooks.deliveries.queryOptions(
        { id: webhookId, ...input },
        {
          // A delivery on its way changes by itself: look again while the page shows one.
          refetchInterval: (q) =>
            q.state.data && rowsOf(q.state.data).some((d) => d.status === 'pending' || d.status === 'sending')
              ? 5_000
              : false,
        },
      ),
    rows: rowsOf,
    columns,
  });
  const { state, list } = deliveries;

  return (
    <ResourceListView
      className={className}
      labelledBy="delivery-log-title"
      header={
        <CardHeader className="pb-3">
          <div>
            <CardTitle id="delivery-log-title">{t.title}</CardTitle>
            <CardDescription>{t.description}</CardDescription>
          </div>
        </CardHeader>
      }
      controller={deliveries}
      strings={t}
      filterBar={
        <>
          <ToggleChips
            label={t.filterStatus}
            options={DELIVERY_STATUSES.map((status) => ({ value: status, label: t.statuses[status] }))}
            selected={state.filters.status ?? []}
            onChange={(next) => list.patchFilters({ status: next.length > 0 ? next : undefined })}
          />
          <ToggleChips
            label={t.filterEvent}
            options={DELIVERED_EVENT_TYPES.map((event) => ({ value: event, label: eventLabel(event, m) }))}
            selected={state.filters.event_type ?? []}
            onChange={(next) => list.patchFilters({ event_type: next.length > 0 ? next : undefined })}
          />
        </>
      }
      empty={{ icon: <Send aria-hidden="true" /> }}
    />
  );
}
