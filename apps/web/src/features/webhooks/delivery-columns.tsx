import type { DeliveryStatus, WebhookDelivery } from '@app/contracts';
import { Badge, type BadgeTone } from '@app/ui';
import { Link } from 'react-router';
import type { WebhooksPageMessages } from '../../i18n/webhooks-messages';
import { defineColumns } from '../../lib/resource-list/define-columns';
import { eventLabel } from './webhook-status';

export const DELIVERY_TONES: Record<DeliveryStatus, BadgeTone> = {
  pending: 'neutral',
  sending: 'warning',
  succeeded: 'success',
  failed: 'danger',
};

export function DeliveryStatusBadge({ status, m }: { status: DeliveryStatus; m: WebhooksPageMessages }) {
  return (
    <Badge tone={DELIVERY_TONES[status]} dot className="whitespace-nowrap">
      {m.webhooks.deliveries.statuses[status]}
    </Badge>
  );
}

/** The time links to the delivery; the status comes next so a phone shows it unscrolled. */
const KEYS = [
  'created_at',
  'status',
  'event_type',
  'attempts',
  'last_status_code',
  'last_latency_ms',
  'event_id',
] as const;

/** The delivery log's columns. */
export function deliveryColumns(m: WebhooksPageMessages, webhookId: number) {
  const t = m.webhooks.deliveries;
  const none = <span className="text-muted-foreground">{t.none}</span>;
  return defineColumns<WebhookDelivery, (typeof KEYS)[number]>({
    keys: KEYS,
    labels: t.columns,
    primary: 'created_at',
    cells: {
      created_at: {
        render: (row) => (
          <Link
            to={`/webhooks/${webhookId}/deliveries/${row.id}`}
            className="rounded-sm font-medium whitespace-nowrap text-foreground tabular-nums underline-offset-4 hover:underline"
          >
            <time dateTime={row.created_at}>{m.common.dateTime(row.created_at)}</time>
            <span className="sr-only">{` ${t.open(row.event_id)}`}</span>
          </Link>
        ),
        className: 'w-44',
        skeleton: 'w-32',
      },
      status: { render: (row) => <DeliveryStatusBadge status={row.status} m={m} />, className: 'w-28' },
      event_type: { render: (row) => <span className="whitespace-nowrap">{eventLabel(row.event_type, m)}</span> },
      attempts: {
        render: (row) => <span className="tabular-nums">{row.attempts}</span>,
        className: 'w-20',
        skeleton: 'w-6',
      },
      last_status_code: {
        render: (row) =>
          row.last_status_code === null ? none : <span className="font-mono text-xs">{row.last_status_code}</span>,
        className: 'w-24',
        skeleton: 'w-10',
      },
      last_latency_ms: {
        render: (row) =>
          row.last_latency_ms === null ? (
            none
          ) : (
            <span className="whitespace-nowrap tabular-nums">{t.latency(row.last_latency_ms)}</span>
          ),
        className: 'w-24',
        skeleton: 'w-12',
      },
      event_id: {
        render: (row) => (
          <span className="block max-w-56 truncate font-mono text-xs text-muted-foreground" title={row.event_id}>
            {row.event_id}
          </span>
        ),
        skeleton: 'w-40',
      },
    },
  });
}
