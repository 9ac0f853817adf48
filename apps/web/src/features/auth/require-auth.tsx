import { ErrorState } from '@app/ui';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useMessages } from '../../i18n/messages';
import { FullPageLoading } from './full-page-loading';
import { apiErrorMessage } from '../../lib/api-error';
import { loginPathFor } from '../../lib/auth-paths';
import { useSession } from './use-session';
import { useSessionExpiry } from './use-session-expiry';

/**
 * Renders its children only for a signed-in user. Signed out (now, or by a 401 from any call
 * later on) → the login page with `?next=` set to the current path and query.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const m = useMessages();
  const location = useLocation();
  const session = useSession();
  useSessionExpiry();

  if (session.status === 'signedOut') {
    return <Navigate to={loginPathFor(location)} replace state={{ expired: true }} />;
  }
  if (session.status === 'pending') {
    return <FullPageLoading label={m.session.loading} />;
  }
  if (session.status === 'error') {
    return (
      <div className="flex min-h-dvh items-center justify-center px-4">
        <ErrorState
          title={m.session.errorTitle}
          message={apiErrorMessage(session.error, m)}
          retryLabel={m.common.retry}
          onRetry={session.refetch}
          retrying={session.isFetching}
        />
      </div>
    );
  }
  return children;
}
