import { Card, PageHeader, Skeleton } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';
import { useTRPC } from '../../lib/trpc';
import { RecordErrorState } from '../errors/record-error-state';
import { BackLink } from '../../components/back-link';
import { useIdParam } from '../../lib/use-id-param';
import { useLeaveBack } from '../../lib/use-leave-back';
import { toWebhookFormValues, WebhookForm } from './webhook-form';

/** `/webhooks/:id/edit`: the endpoint form, filled in; saving returns to the endpoint's page. */
export function WebhookEditPage() {
  const m = useWebhooksMessages();
  const t = m.webhooks;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const id = useIdParam();
  const cancel = useLeaveBack(`/webhooks/${id ?? ''}`);
  const show = useQuery({ ...trpc.webhooks.show.queryOptions({ id: id ?? 0 }), enabled: id !== null });
  const update = useMutation(trpc.webhooks.update.mutationOptions());
  const item = show.data?.item;

  return (
    <>
      <title>{m.app.documentTitle(t.form.editTitle)}</title>
      <BackLink to={item ? `/webhooks/${item.id}` : '/webhooks'} label={item?.url ?? t.show.back} />
      <PageHeader className="mt-3" title={t.form.editTitle} />
      <div className="mt-8 max-w-4xl">
        {item ? (
          <WebhookForm
            initial={toWebhookFormValues(item)}
            submitLabel={t.form.save}
            onCancel={cancel}
            onSubmit={async (input) => {
              await update.mutateAsync({ id: item.id, ...input });
              toast.success(t.form.saved);
              void navigate(`/webhooks/${item.id}`, { replace: true });
              void queryClient.invalidateQueries(trpc.webhooks.pathFilter());
            }}
          />
        ) : show.isError || id === null ? (
          <RecordErrorState
            error={show.error}
            notFound={id === null}
            notFoundTitle={t.show.notFoundTitle}
            notFoundDescription={t.show.notFoundDescription}
            errorTitle={t.show.errorTitle}
            onRetry={() => void show.refetch()}
            retrying={show.isFetching}
            back={{ to: '/webhooks', label: t.show.backToList }}
          />
        ) : (
          <Card role="status" aria-label={t.show.loading} className="space-y-5 p-6">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-40 w-full" />
          </Card>
        )}
      </div>
    </>
  );
}
