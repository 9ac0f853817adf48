import type { Webhook } from '@app/contracts';
import { Badge, Button, buttonClassName, Card, CardHeader, CardTitle, ConfirmDialog, DescriptionList } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Pencil, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { RecordPage, RecordSkeleton } from '../errors/record-page';
import { useIdParam } from '../../lib/use-id-param';
import { DeliveryLog } from './delivery-log';
import { useDeleteWebhookDialog } from './use-delete-webhook';
import { WebhookSecretDialog } from './webhook-secret-dialog';
import { eventLabel, WebhookStatusBadges } from './webhook-status';

/** `/webhooks/:id`: one endpoint — its settings, its secret's rotation, and its delivery log. */
export function WebhookShowPage() {
  const m = useWebhooksMessages();
  const t = m.webhooks.show;
  const trpc = useTRPC();
  const id = useIdParam();
  const show = useQuery({ ...trpc.webhooks.show.queryOptions({ id: id ?? 0 }), enabled: id !== null });

  return (
    <RecordPage
      id={id}
      query={show}
      backTo="/webhooks"
      strings={t}
      // The title is the endpoint's URL: a longer bar than a name's.
      skeleton={<RecordSkeleton label={t.loading} titleClassName="w-96 max-w-full" />}
      render={(data) => <WebhookDetails item={data.item} />}
    />
  );
}

function WebhookDetails({ item }: { item: Webhook }) {
  const m = useWebhooksMessages();
  const t = m.webhooks;
  const trpc = useTRPC();
  const navigate = useNavigate();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const remove = useDeleteWebhookDialog(() => void navigate('/webhooks', { replace: true }));
  const queryClient = useQueryClient();
  const test = useMutation(
    trpc.webhooks.test.mutationOptions({
      onSuccess: () => toast.success(t.show.testSent),
      // An inactive endpoint is refused in the server's words ("Turn the endpoint on…").
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      // The log below shows the new delivery, and follows it until it settles.
      onSettled: () => void queryClient.invalidateQueries(trpc.webhooks.deliveries.pathFilter()),
    }),
  );
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: (created) => setSecret(created.secret),
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      onSettled: () => setConfirmRotate(false),
    }),
  );

  return (
    <>
      <title>{m.app.documentTitle(item.url)}</title>
      <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="font-mono text-xl font-semibold tracking-tight break-all text-foreground">{item.url}</h1>
          <div className="mt-2">
            <WebhookStatusBadges item={item} showDetail />
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Link to={`/webhooks/${item.id}/edit`} className={buttonClassName({ variant: 'secondary' })}>
            <Pencil aria-hidden="true" />
            {t.show.edit}
          </Link>
          <Button variant="secondary" loading={test.isPending} onClick={() => test.mutate({ id: item.id })}>
            {test.isPending ? null : <Send aria-hidden="true" />}
            {t.show.test}
          </Button>
          <Button variant="secondary" onClick={() => setConfirmRotate(true)}>
            <KeyRound aria-hidden="true" />
            {t.rotate.button}
          </Button>
          <Button variant="secondary" onClick={() => remove.ask(item)}>
            <Trash2 aria-hidden="true" />
            {t.show.delete}
          </Button>
        </div>
      </div>

      <Card aria-labelledby="webhook-details-title" className="mt-8 overflow-hidden">
        <CardHeader className="pb-3">
          <CardTitle id="webhook-details-title">{t.show.detailsTitle}</CardTitle>
        </CardHeader>
        <DescriptionList
          className="border-t border-border"
          items={[
            { term: t.show.description, description: item.description || t.noDescription },
            {
              term: t.show.events,
              description: (
                <span className="flex flex-wrap gap-1.5">
                  {item.events.map((event) => (
                    <Badge key={event} title={event}>
                      {eventLabel(event, m)}
                    </Badge>
                  ))}
                </span>
              ),
            },
            {
              term: t.show.created,
              description: (
                <>
                  <time dateTime={item.created_at}>{m.common.dateTime(item.created_at)}</time>
                  {item.created_by ? ` ${t.show.createdBy(item.created_by.name)}` : null}
                </>
              ),
            },
            {
              term: t.show.updated,
              description: <time dateTime={item.updated_at}>{m.common.dateTime(item.updated_at)}</time>,
            },
          ]}
        />
      </Card>

      <DeliveryLog webhookId={item.id} className="mt-6" />

      <ConfirmDialog
        open={confirmRotate}
        onOpenChange={setConfirmRotate}
        title={t.rotate.title}
        description={t.rotate.description}
        confirmLabel={t.rotate.confirm}
        cancelLabel={m.common.cancel}
        tone="danger"
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate({ id: item.id })}
      />
      <WebhookSecretDialog secret={secret} title={t.secret.rotatedTitle} onClose={() => setSecret(null)} />
      {remove.dialog}
    </>
  );
}
