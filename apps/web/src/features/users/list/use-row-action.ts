import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { useMessages } from '../../../i18n/messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { useTRPC } from '../../../lib/trpc';
import type { UserAction } from './user-actions';
import type { RowActionRequest } from './users-row-actions';

/**
 * One row's confirmed action, through its single-record route, so a refusal is the rule's own
 * sentence. Every outcome is a toast; the list refetches after any change.
 */
export function useRowAction({ canRestore, onRemoved }: { canRestore: boolean; onRemoved: (id: number) => void }) {
  const m = useMessages();
  const t = m.usersList.rowActions;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [request, setRequest] = useState<RowActionRequest | null>(null);

  const setActive = useMutation(trpc.users.setActive.mutationOptions());
  const remove = useMutation(trpc.users.delete.mutationOptions());
  const restore = useMutation(trpc.users.restore.mutationOptions());
  const forceDelete = useMutation(trpc.users.forceDelete.mutationOptions());

  const refresh = () => queryClient.invalidateQueries(trpc.users.pathFilter());

  async function perform(action: UserAction, id: number): Promise<void> {
    if (action === 'activate' || action === 'deactivate')
      await setActive.mutateAsync({ id, active: action === 'activate' });
    else if (action === 'delete') await remove.mutateAsync({ id });
    else if (action === 'restore') await restore.mutateAsync({ id });
    else await forceDelete.mutateAsync({ id });
  }

  const undoDelete = (id: number, name: string) => {
    restore.mutate(
      { id },
      {
        onSuccess: () => toast.success(t.done.restore(name)),
        onError: (error) => toast.error(apiErrorMessage(error, m)),
        onSettled: refresh,
      },
    );
  };

  async function confirm() {
    if (!request) return;
    const { action, row } = request;
    try {
      await perform(action, row.id);
      toast.success(t.done[action](row.name), {
        ...(action === 'delete' && canRestore
          ? { action: { label: t.undo, onClick: () => undoDelete(row.id, row.name) } }
          : {}),
      });
      if (action === 'delete' || action === 'forceDelete' || action === 'restore') onRemoved(row.id);
    } catch (error) {
      toast.error(apiErrorMessage(error, m));
    } finally {
      setRequest(null);
      void refresh();
    }
  }

  return {
    request,
    open: setRequest,
    close: () => setRequest(null),
    confirm,
    pending: setActive.isPending || remove.isPending || restore.isPending || forceDelete.isPending,
  };
}
