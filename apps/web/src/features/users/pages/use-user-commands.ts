import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import { useCan } from '../../auth/use-session';

export interface UserRef {
  id: number;
  name: string;
}

/**
 * What can be done to one user, as mutations that tell the outcome in a toast (the server's own
 * sentence when it refuses: LAST_ADMIN, SELF_DEACTIVATION, NOT_INACTIVE, SELF_DELETE) and refresh
 * every cached users query. Each action has its single-record route.
 */
export function useUserCommands(user: UserRef) {
  const m = useUserPagesMessages();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const can = useCan();
  const invalidate = () => queryClient.invalidateQueries(trpc.users.pathFilter());
  // Leaving the page: mark every users answer stale without refetching this page's own query,
  // which would flash "deleted" or "not found" while the list renders.
  const invalidateOnLeave = () => queryClient.invalidateQueries({ ...trpc.users.pathFilter(), refetchType: 'none' });
  const fail = (error: unknown) => toast.error(apiErrorMessage(error, m));

  // Runs after the page is gone (from the toast), so it uses the raw client, not a hook.
  const undoDelete = async () => {
    try {
      await client.users.restore.mutate({ id: user.id });
      toast.success(m.userActions.restored(user.name));
    } catch (error) {
      fail(error);
    } finally {
      void invalidate();
    }
  };

  const setActive = useMutation(
    trpc.users.setActive.mutationOptions({
      onSuccess: ({ item }) =>
        toast.success(item.is_active ? m.userActions.activated(user.name) : m.userActions.deactivated(user.name)),
      onError: fail,
      onSettled: invalidate,
    }),
  );

  const remove = useMutation(
    trpc.users.delete.mutationOptions({
      onSuccess: () => {
        void navigate('/users');
        toast.success(m.userActions.deletedToast, {
          description: m.userActions.deletedToastDescription(user.name),
          ...(can['users.restore'] ? { action: { label: m.userActions.undo, onClick: () => void undoDelete() } } : {}),
        });
        void invalidateOnLeave();
      },
      onError: fail,
    }),
  );

  const restore = useMutation(
    trpc.users.restore.mutationOptions({
      onSuccess: () => toast.success(m.userActions.restored(user.name)),
      onError: fail,
      onSettled: invalidate,
    }),
  );

  const forceDelete = useMutation(
    trpc.users.forceDelete.mutationOptions({
      onSuccess: () => {
        void navigate('/users');
        toast.success(m.userActions.forceDeleted(user.name));
        void invalidateOnLeave();
      },
      onError: fail,
    }),
  );

  return {
    activate: (done: () => void) => setActive.mutate({ id: user.id, active: true }, { onSettled: done }),
    deactivate: (done: () => void) => setActive.mutate({ id: user.id, active: false }, { onSettled: done }),
    remove: (done: () => void) => remove.mutate({ id: user.id }, { onSettled: done }),
    restore: (done: () => void) => restore.mutate({ id: user.id }, { onSettled: done }),
    forceDelete: (done: () => void) => forceDelete.mutate({ id: user.id }, { onSettled: done }),
    pending: setActive.isPending || remove.isPending || restore.isPending || forceDelete.isPending,
  };
}
