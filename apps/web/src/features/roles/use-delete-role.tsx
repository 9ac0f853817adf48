import { roleNameKey } from '@app/contracts';
import { Alert, ConfirmDialog, TextField } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { useMessages } from '../../i18n/messages';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { RoleDeleteImpact } from './role-delete-impact';

interface DeletableRole {
  id: number;
  name: string;
  /** Its members now; with any, deleting takes the role from them (`detach=true`). */
  users_count: number;
}

/**
 * Whether what was typed names the role, compared as the server compares role names (case and
 * spacing aside): "Help  desk" confirms "Help Desk".
 */
export const namesRole = (typed: string, name: string) => roleNameKey(typed) === roleNameKey(name);

/**
 * "Delete the role X?": names the role and, when it has members, how many will lose it and what
 * (the preview's impact), and asks for the role's name before the confirmation sends
 * `detach=true`, the server's explicit consent for that. A role nobody holds is one click. A
 * refusal stays in the dialog; a role that gained members meanwhile (409 ROLE_IN_USE) is read
 * again, so the question is asked once more with the true count. After a delete: a notice and
 * the roles list.
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
  const [typed, setTyped] = useState('');
  const remove = useMutation(trpc.roles.delete.mutationOptions());
  const held = (role?.users_count ?? 0) > 0;
  const confirmed = !held || (role !== undefined && namesRole(typed, role.name));

  const confirm = () => {
    if (!role || !confirmed) return;
    setError(null);
    remove.mutate(
      { id: role.id, ...(held ? { detach: true } : {}) },
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
        if (!next) {
          setError(null);
          setTyped('');
        }
      }}
      title={t.title(role.name)}
      description={held ? `${t.members(role.users_count, role.name)} ${t.description}` : t.description}
      confirmLabel={t.confirm}
      cancelLabel={m.common.cancel}
      tone="danger"
      pending={remove.isPending}
      confirmDisabled={!confirmed}
      onConfirm={confirm}
    >
      {held || error ? (
        <div className="flex flex-col gap-4">
          {held ? <RoleDeleteImpact roleId={role.id} /> : null}
          {held ? (
            <TextField
              label={t.typeName(role.name)}
              description={t.typeNameHint}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  confirm();
                }
              }}
            />
          ) : null}
          {error ? (
            <Alert tone="danger" title={t.failedTitle}>
              {error}
            </Alert>
          ) : null}
        </div>
      ) : null}
    </ConfirmDialog>
  ) : null;
  return { ask: () => setOpen(true), dialog };
}
