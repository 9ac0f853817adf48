import { type AuthSession, type CapabilityMap, capabilityMap } from '@app/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiErrorCode } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';

export type SessionStatus = 'pending' | 'signedIn' | 'signedOut' | 'error';

export interface Session {
  status: SessionStatus;
  /** Present when signed in. */
  session: AuthSession | undefined;
  /** Why the session could not be checked (status `error`: network, 5xx). */
  error: unknown;
  refetch: () => void;
  isFetching: boolean;
}

/** Every capability false: what a signed-out or still-loading session may do. */
export const NO_CAPABILITIES: CapabilityMap = capabilityMap([]);

/**
 * The signed-in user and their capability map, from `auth.me`. A 401 means signed out; any
 * other failure is an error to retry (the session may well be fine). One cached query serves
 * every caller.
 */
export function useSession(): Session {
  const trpc = useTRPC();
  // Not re-asked on every mount: a 401 or 403 anywhere re-checks it (useSessionExpiry), as does
  // returning to the window after a while; the server enforces every permission regardless.
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { staleTime: 5 * 60_000 }));
  const refetch = () => void me.refetch();
  // A failed refetch keeps the previous data: a 401 must still win over it.
  const status: SessionStatus =
    me.isError && apiErrorCode(me.error) === 'UNAUTHENTICATED'
      ? 'signedOut'
      : me.data
        ? 'signedIn'
        : me.isError
          ? 'error'
          : 'pending';
  return {
    status,
    session: status === 'signedIn' ? me.data : undefined,
    error: me.error,
    refetch,
    isFetching: me.isFetching,
  };
}

/** The capability map of the signed-in user (every permission → boolean); all false until known. */
export function useCan(): CapabilityMap {
  return useSession().session?.can ?? NO_CAPABILITIES;
}
