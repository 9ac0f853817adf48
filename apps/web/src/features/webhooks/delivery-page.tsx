import type { WebhookDeliveryDetail } from '@app/contracts';
import { Button, Card, CardDescription, CardHeader, CardTitle, DescriptionList } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { RecordPage } from '../errors/record-page';
import { useIdParam } from '../../lib/use-id-param';
import { AttemptList } from './delivery-attempts';
import { DeliveryStatusBadge } from './delivery-columns';
import { eventLabel } from './webhook-status';

type Delivery = WebhookDeliveryDetail['item'];

/** `/webhooks/:id/deliveries/:deliveryId`: one event's delivery — its payload, each attempt, and Redeliver. */
export function DeliveryPage() {
  const m = useWebhooksMessages();
  const t = m.webhooks.delivery;
  const trpc = useTRPC();
  const webhookId = useIdParam();
  const deliveryId = useIdParam('deliveryId');
  const ids = webhookId !== null && deliveryId !== null ? { id: webhookId, deliveryId } : null;
  const show = useQuery({
    ...trpc.webhooks.delivery.queryOptions(ids ?? { id: 0, deliveryId: 0 }),
    enabled: ids !== null,
  });

  return (
    <RecordPage
      id={ids}
      query={show}
      backTo={webhookId ? `/webhooks/${webhookId}` : '/webhooks'}
      strings={t}
      render={(data, { id }) => <DeliveryDetails webhookId={id} delivery={data.item} />}
    />
  );
}

function DeliveryDetails({ webhookId, delivery }: { webhookId: number; delivery: Delivery }) {
  const m = useWebhooksMessages();
  const t = m.webhooks.delivery;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: ({ item }) => {
        toast.success(t.redelivered);
        // A redelivery may be a new row of the log: show that one.
        if (item.id !== delivery.id) void navigate(`/webhooks/${webhookId}/deliveries/${item.id}`);
      },
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      onSettled: () => void queryClient.invalidateQueries(trpc.webhooks.pathFilter()),
    }),
  );
  const title = eventLabel(delivery.event_type, m);

  return (
    <>
      <title>{m.app.documentTitle(title)}</title>
      <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
          <h1 className="text-2xl font-semibold tracking-tight text-foreground">{title}</h1>
          <DeliveryStatusBadge status={delivery.status} m={m} />
        </div>
        <Button
          variant="secondary"
          className="self-start"
          loading={redeliver.isPending}
          onClick={() => redeliver.mutate({ id: webhookId, deliveryId: delivery.id })}
        >
          {redeliver.isPending ? null : <RotateCw aria-hidden="true" />}
          {t.redeliver}
        </Button>
      </div>

      <Card aria-labelledby="delivery-details-title" className="mt-8 overflow-hidden">
        <CardHeader className="pb-3">
          <CardTitle id="delivery-details-title">{t.detailsTitle}</CardTitle>
        </CardHeader>
        <DescriptionList
          className="border-t border-border"
          items={[
            { term: t.eventId, description: <span className="font-mono text-xs break-all">{delivery.event_id}</span> },
            { term: t.attempts, description: <span className="tabular-nums">{delivery.attempts}</span> },
            {
              term: t.created,
              description: <time dateTime={delivery.created_at}>{m.common.dateTime(delivery.created_at)}</time>,
            },
            ...(delivery.next_attempt_at
              ? [
                  {
                    term: t.nextAttempt,
                    description: (
                      <time dateTime={delivery.next_attempt_at} title={m.common.dateTime(delivery.next_attempt_at)}>
                        {t.nextAttemptIn(delivery.next_attempt_at)}
                      </time>
                    ),
                  },
                ]
              : []),
            ...(delivery.last_error ? [{ term: t.lastError, description: delivery.last_error }] : []),
          ]}
        />
      </Card>

      <div className="mt-6 grid gap-6 lg:grid-cols-2 lg:items-start">
        <Card aria-labelledby="delivery-payload-title" className="min-w-0 overflow-hidden">
          <CardHeader className="pb-3">
            <div>
              <CardTitle id="delivery-payload-title">{t.payloadTitle}</CardTitle>
              <CardDescription>{t.payloadDescription}</CardDescription>
            </div>
          </CardHeader>
          {/* Wrapped, never scrolled: a scrolling box would need keyboard focus to be read. */}
          <pre className="border-t border-border bg-surface-muted/40 px-5 py-4 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-foreground">
            {JSON.stringify(delivery.payload, null, 2)}
          </pre>
        </Card>
        <Card aria-labelledby="delivery-attempts-title" className="min-w-0 overflow-hidden">
          <CardHeader className="pb-3">
            <div>
              <CardTitle id="delivery-attempts-title">{t.attemptsTitle}</CardTitle>
              <CardDescription>{t.attemptsDescription}</CardDescription>
            </div>
          </CardHeader>
          <AttemptList attempts={delivery.attempts_log} />
        </Card>
      </div>
    </>
  );
}
