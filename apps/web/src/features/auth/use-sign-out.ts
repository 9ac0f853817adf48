import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { useMessages } from '../../i18n/messages';
import { apiErrorCode } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { LOGIN_PATH } from '../../lib/auth-paths';

/** Ends the session server side, forgets every cached answer, and goes to the login page. */
export function useSignOut() {
  const m = useMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const finish = () => {
    // Nothing of this session may be shown to whoever signs in next on this browser.
    queryClient.removeQueries();
    void navigate(LOGIN_PATH, { replace: true });
  };

  const mutation = useMutation(
    trpc.auth.logout.mutationOptions({
      onSuccess: finish,
      onError: (error) => {
        // Already signed out (expired, revoked): the outcome the user asked for.
        if (apiErrorCode(error) === 'UNAUTHENTICATED') finish();
        else toast.error(m.session.signOutFailed);
      },
    }),
  );
  return { signOut: () => mutation.mutate(), pending: mutation.isPending };
}
