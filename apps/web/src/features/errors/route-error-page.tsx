import { ErrorState } from '@app/ui';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useMessages } from '../../i18n/messages';
import { NotFoundPage } from './not-found-page';

/** Last line of defence for a route that throws while rendering or loading. */
export function RouteErrorPage() {
  const m = useMessages();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;

  return (
    <div className="mx-auto max-w-lg py-16">
      <title>{m.app.documentTitle(m.routeError.title)}</title>
      <ErrorState
        title={m.routeError.title}
        message={m.routeError.description}
        retryLabel={m.routeError.reload}
        onRetry={() => window.location.reload()}
      />
    </div>
  );
}
