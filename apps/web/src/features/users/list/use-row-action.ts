import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { useMessages } from '../../../i18n/messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { useTRPC } from '../../../lib/trpc';
import { bulkInput, type UserAction } from './user-actions';
import type { RowActionRequest } from './users-row-actions';

/**
 * One row's confirmed action. (De)activation and delete use their single-record routes, so the
 * refusal is the rule's own sentence; restore and purge have no single route and go through bulk
 * with one id. Every outcome is a toast; the list refetches after any change.
 */
export function useRowAction({ canRestore, onRemoved }: { canRestore: boolean; onRemoved: (id: number) => void }) {
  const m = useMessages();
  const t = m.usersList.rowActions;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [request, setRequest] = useState<RowActionRequest | null>(null);

  const setActive = useMutation(trpc.users.setActive.mutationOptions());
  const remove = useMutation(trpc.users.delete.mutationOptions());
  const bulk = useMutation(trpc.users.bulk.mutationOptions());

  const refresh = () => queryClient.invalidateQueries(trpc.users.pathFilter());

  /** Runs the action; a refusal the server reported inside a bulk answer comes back as its message. */
  async function perform(action: UserAction, id: number): Promise<string | null> {
    if (action === 'activate' || action === 'deactivate') {
      await setActive.mutateAsync({ id, active: action === 'activate' });
    } else if (action === 'delete') {
      await remove.mutateAsync({ id });
    } else {
      const report = await bulk.mutateAsync(bulkInput(action, [id], false));
      return report.skipped[0]?.message ?? null;
    }
    return null;
  }

  const undoDelete = (id: number, name: string) => {
    bulk.mutate(bulkInput('restore', [id], false), {
      onSuccess: () => toast.success(t.done.restore(name)),
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      onSettled: refresh,
    });
  };

  async function confirm() {
    if (!request) return;
    const { action, row } = request;
    try {
      const refusal = await perform(action, row.id);
      if (refusal) {
        toast.error(refusal);
        return;
      }
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
    pending: setActive.isPending || remove.isPending || bulk.isPending,
  };
}
