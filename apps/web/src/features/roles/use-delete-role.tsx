import { Alert, ConfirmDialog } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { useMessages } from '../../i18n/messages';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';

interface DeletableRole {
  id: number;
  name: string;
  /** Its members now; with any, deleting takes the role from them (`detach=true`). */
  users_count: number;
}

/**
 * "Delete the role X?": names the role and, when it has members, how many will lose it — then
 * the confirmation sends `detach=true`, the server's explicit consent for that. A refusal stays
 * in the dialog; a role that gained members meanwhile (409 ROLE_IN_USE) is read again, so the
 * question is asked once more with the true count. After a delete: a notice and the roles list.
 */
export function useDeleteRoleDialog(role: DeletableRole | undefined, refetch: () => unknown) {
  const m = useMessages();
  const r = useRoleEditorMessages();
  const t = r.remove;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation(trpc.roles.delete.mutationOptions());

  const confirm = () => {
    if (!role) return;
    setError(null);
    remove.mutate(
      { id: role.id, ...(role.users_count > 0 ? { detach: true } : {}) },
      {
        onSuccess: () => {
          setOpen(false);
          toast.success(t.done(role.name));
          void navigate('/roles', { replace: true });
          void queryClient.invalidateQueries(trpc.roles.list.pathFilter());
          void queryClient.invalidateQueries({ ...trpc.permissions.pathFilter(), refetchType: 'none' });
        },
        onError: (failure) => {
          setError(apiErrorMessage(failure, m));
          if (apiErrorCode(failure) === 'ROLE_IN_USE') void refetch();
        },
      },
    );
  };

  const dialog = role ? (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setError(null);
      }}
      title={t.title(role.name)}
      description={role.users_count > 0 ? `${t.members(role.users_count, role.name)} ${t.description}` : t.description}
      confirmLabel={t.confirm}
      cancelLabel={m.common.cancel}
      tone="danger"
      pending={remove.isPending}
      onConfirm={confirm}
    >
      {error ? (
        <Alert tone="danger" title={t.failedTitle}>
          {error}
        </Alert>
      ) : null}
    </ConfirmDialog>
  ) : null;
  return { ask: () => setOpen(true), dialog };
}
