import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiErrorCode } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';

const RECHECK_ON = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'TWO_FACTOR_ENROLMENT_REQUIRED']);

const sameKey = (a: QueryKey | undefined, b: QueryKey) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Any 401 from any query or mutation means the session is gone (expired, revoked, the account
 * deactivated): re-check `auth.me`, whose 401 then signs the user out and `RequireAuth` sends
 * them to the login page with the way back. A 403 means the capabilities changed under the
 * page: re-checking refreshes `can`, so controls that would now fail disappear; a 403
 * TWO_FACTOR_ENROLMENT_REQUIRED (a role now requires a second factor) refreshes `two_factor`, and
 * `RequireAuth` takes the person to enrolment. `auth.me`
 * itself and `auth.login` (whose 401 means wrong credentials) are left alone.
 */
export function useSessionExpiry(): void {
  const queryClient = useQueryClient();
  const trpc = useTRPC();

  useEffect(() => {
    const meKey = trpc.auth.me.queryKey();
    const loginKey = trpc.auth.login.mutationKey();
    const recheck = () => void queryClient.invalidateQueries({ queryKey: meKey, exact: true });

    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error') return;
      if (sameKey(event.query.queryKey, meKey)) return;
      if (RECHECK_ON.has(apiErrorCode(event.action.error) ?? '')) recheck();
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error') return;
      if (sameKey(event.mutation.options.mutationKey, loginKey)) return;
      if (RECHECK_ON.has(apiErrorCode(event.action.error) ?? '')) recheck();
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [queryClient, trpc]);
}
