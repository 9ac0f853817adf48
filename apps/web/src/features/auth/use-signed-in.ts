import type { AuthSession } from '@app/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { homePathFor } from '../../lib/auth-paths';
import { useTRPC } from '../../lib/trpc';

/** What every way of signing in ends with: the session primed, and the person sent on. */
export function useSignedIn(next: string | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (session: AuthSession) => {
    // Answers cached for an earlier session (another account on this browser) must not show.
    queryClient.removeQueries();
    queryClient.setQueryData(trpc.auth.me.queryKey(), session);
    void navigate(next ?? homePathFor(session.can), { replace: true });
  };
}
