import type { Webhook } from '@app/contracts';
import { ConfirmDialog } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../lib/toast';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';

/** "Delete this endpoint?": `ask(item)` opens the question; `onDeleted` runs after the server agreed. */
export function useDeleteWebhookDialog(onDeleted?: () => void) {
  const m = useWebhooksMessages();
  const t = m.webhooks.remove;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [item, setItem] = useState<Webhook | null>(null);
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: () => {
        toast.success(t.done);
        onDeleted?.();
      },
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      onSettled: () => {
        setItem(null);
        // The page being left would only redraw under the navigation: mark stale, refetch the list.
        void queryClient.invalidateQueries(trpc.webhooks.list.pathFilter());
      },
    }),
  );

  const dialog = (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(open) => (open ? undefined : setItem(null))}
      title={item ? t.title(item.url) : ''}
      description={t.description}
      confirmLabel={t.confirm}
      cancelLabel={m.common.cancel}
      tone="danger"
      pending={remove.isPending}
      onConfirm={() => (item ? remove.mutate({ id: item.id }) : undefined)}
    />
  );
  return { ask: setItem, dialog };
}
