import { ConfirmDialog } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { useMessages } from '../../../i18n/messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import { DESTRUCTIVE_ACTIONS, type UserAction } from './user-actions';
import type { RowActionRequest } from './users-row-actions';

export interface RowActionDialogProps {
  request: RowActionRequest;
  /** An undo on a deletion's toast needs the right to restore. */
  canRestore: boolean;
  /** A row that left the view (deleted, purged, restored) leaves the selection too. */
  onRemoved: (id: number) => void;
  onClose: () => void;
}

/**
 * The confirmation of one row's action, run through its single-record route so a refusal is the
 * rule's own sentence. Every outcome is a toast; the list refetches after any change.
 */
export function RowActionDialog({ request, canRestore, onRemoved, onClose }: RowActionDialogProps) {
  const m = useMessages();
  const t = m.usersList.rowActions;
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const setActive = useMutation(trpc.users.setActive.mutationOptions());
  const remove = useMutation(trpc.users.delete.mutationOptions());
  const restore = useMutation(trpc.users.restore.mutationOptions());
  const forceDelete = useMutation(trpc.users.forceDelete.mutationOptions());
  const { action, row, returnFocusTo } = request;

  const refresh = () => queryClient.invalidateQueries(trpc.users.pathFilter());

  async function perform(chosen: UserAction, id: number): Promise<void> {
    if (chosen === 'activate' || chosen === 'deactivate')
      await setActive.mutateAsync({ id, active: chosen === 'activate' });
    else if (chosen === 'delete') await remove.mutateAsync({ id });
    else if (chosen === 'restore') await restore.mutateAsync({ id });
    else await forceDelete.mutateAsync({ id });
  }

  // The toast outlives this dialog: its undo goes through the client, not a hook of the dialog.
  const undoDelete = (id: number, name: string) =>
    void client.users.restore
      .mutate({ id })
      .then(
        () => toast.success(t.done.restore(name)),
        (error: unknown) => toast.error(apiErrorMessage(error, m)),
      )
      .finally(refresh);

  async function confirm() {
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
      onClose();
      void refresh();
    }
  }

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t.title[action](row.name)}
      description={t.description[action]}
      confirmLabel={t[action]}
      cancelLabel={t.cancel}
      tone={DESTRUCTIVE_ACTIONS.has(action) ? 'danger' : 'primary'}
      pending={setActive.isPending || remove.isPending || restore.isPending || forceDelete.isPending}
      onConfirm={() => void confirm()}
      onCloseAutoFocus={(event) => {
        if (returnFocusTo?.isConnected) {
          event.preventDefault();
          returnFocusTo.focus();
        }
      }}
    />
  );
}
