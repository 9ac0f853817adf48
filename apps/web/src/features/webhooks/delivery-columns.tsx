import type { DeliveryStatus, WebhookDelivery } from '@app/contracts';
import { Badge, type BadgeTone } from '@app/ui';
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Messages } from '../../i18n/messages';
import { eventLabel } from './webhook-status';

export const DELIVERY_TONES: Record<DeliveryStatus, BadgeTone> = {
  pending: 'neutral',
  sending: 'warning',
  succeeded: 'success',
  failed: 'danger',
};

export function DeliveryStatusBadge({ status, m }: { status: DeliveryStatus; m: Messages }) {
  return (
    <Badge tone={DELIVERY_TONES[status]} dot className="whitespace-nowrap">
      {m.webhooks.deliveries.statuses[status]}
    </Badge>
  );
}

type Key = keyof Messages['webhooks']['deliveries']['columns'];

/** The delivery log's columns; the time links to the delivery, the status comes next so a phone shows it unscrolled. */
export function deliveryColumns(m: Messages, webhookId: number): ColumnDef<WebhookDelivery>[] {
  const t = m.webhooks.deliveries;
  const none = <span className="text-muted-foreground">{t.none}</span>;
  const column = (
    key: Key,
    render: (row: WebhookDelivery) => ReactNode,
    className?: string,
    skeleton = 'w-20',
  ): ColumnDef<WebhookDelivery> => ({
    id: key,
    enableSorting: false,
    header: () => t.columns[key],
    cell: ({ row }) => render(row.original),
    meta: { className, skeletonClassName: skeleton, label: t.columns[key], primary: key === 'created_at' },
  });
  return [
    column(
      'created_at',
      (row) => (
        <Link
          to={`/webhooks/${webhookId}/deliveries/${row.id}`}
          className="rounded-sm font-medium whitespace-nowrap text-foreground tabular-nums underline-offset-4 hover:underline"
        >
          <time dateTime={row.created_at}>{m.common.dateTime(row.created_at)}</time>
          <span className="sr-only">{` ${t.open(row.event_id)}`}</span>
        </Link>
      ),
      'w-44',
      'w-32',
    ),
    column('status', (row) => <DeliveryStatusBadge status={row.status} m={m} />, 'w-28'),
    column('event_type', (row) => <span className="whitespace-nowrap">{eventLabel(row.event_type, m)}</span>),
    column('attempts', (row) => <span className="tabular-nums">{row.attempts}</span>, 'w-20', 'w-6'),
    column(
      'last_status_code',
      (row) =>
        row.last_status_code === null ? none : <span className="font-mono text-xs">{row.last_status_code}</span>,
      'w-24',
      'w-10',
    ),
    column(
      'last_latency_ms',
      (row) =>
        row.last_latency_ms === null ? (
          none
        ) : (
          <span className="whitespace-nowrap tabular-nums">{t.latency(row.last_latency_ms)}</span>
        ),
      'w-24',
      'w-12',
    ),
    column(
      'event_id',
      (row) => (
        <span className="block max-w-56 truncate font-mono text-xs text-muted-foreground" title={row.event_id}>
          {row.event_id}
        </span>
      ),
      undefined,
      'w-40',
    ),
  ];
}
