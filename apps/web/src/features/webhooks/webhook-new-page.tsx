import type { WebhookCreated } from '@app/contracts';
import { PageHeader } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';
import { useTRPC } from '../../lib/trpc';
import { BackLink } from '../../components/back-link';
import { useLeaveBack } from '../../lib/use-leave-back';
import { EMPTY_WEBHOOK_FORM, WebhookForm } from './webhook-form';
import { WebhookSecretDialog } from './webhook-secret-dialog';

/** `/webhooks/new`: the endpoint form; once added, its signing secret is shown this once. */
export function WebhookNewPage() {
  const m = useWebhooksMessages();
  const t = m.webhooks;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cancel = useLeaveBack('/webhooks');
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries(trpc.webhooks.list.pathFilter()),
    }),
  );

  return (
    <>
      <title>{m.app.documentTitle(t.form.newTitle)}</title>
      <BackLink to="/webhooks" label={t.show.back} />
      <PageHeader className="mt-3" title={t.form.newTitle} description={t.form.newSubtitle} />
      <div className="mt-8 max-w-4xl">
        <WebhookForm
          initial={EMPTY_WEBHOOK_FORM}
          submitLabel={t.form.create}
          onSubmit={async (input) => setCreated(await create.mutateAsync(input))}
          onCancel={cancel}
        />
      </div>
      <WebhookSecretDialog
        secret={created?.secret ?? null}
        title={t.secret.createdTitle}
        onClose={() => {
          const id = created?.item.id;
          setCreated(null);
          // Replace: Back from the endpoint's page returns to where the form was opened from.
          if (id) void navigate(`/webhooks/${id}`, { replace: true });
        }}
      />
    </>
  );
}
