import { ErrorState } from '@app/ui';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useMessages } from '../../i18n/messages';
import { FullPageLoading } from './full-page-loading';
import { apiErrorMessage } from '../../lib/api-error';
import { loginPathFor, TWO_FACTOR_PATH } from '../../lib/auth-paths';
import { heldAtEnrolment } from '../../lib/account-api';
import { useSession } from './use-session';
import { useSessionExpiry } from './use-session-expiry';

/**
 * Renders its children only for a signed-in user. Signed out (now, or by a 401 from any call
 * later on) → the login page with `?next=` set to the current path and query. Signed in but held
 * at enrolment (a role requires a second factor the person has not set up) → the enrolment page.
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
  // The API answers TWO_FACTOR_ENROLMENT_REQUIRED to everything else: every page leads here.
  if (heldAtEnrolment(session.session) && location.pathname !== TWO_FACTOR_PATH) {
    return <Navigate to={TWO_FACTOR_PATH} replace />;
  }
  return children;
}
