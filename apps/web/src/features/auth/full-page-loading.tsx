import { Spinner } from '@app/ui';
import { useMessages } from '../../i18n/messages';

/** A quiet centred spinner while the session or a page's code is on its way. */
export function FullPageLoading({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="flex min-h-dvh items-center justify-center">
      <Spinner className="size-5 text-muted-foreground" />
    </div>
  );
}

/** The router's first-load fallback (a lazy page's code is loading). */
export function RouteLoading() {
  return <FullPageLoading label={useMessages().common.loading} />;
}
