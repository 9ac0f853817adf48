import { buttonClassName, EmptyState, ErrorState } from '@app/ui';
import { SearchX, ShieldOff } from 'lucide-react';
import { Link } from 'react-router';
import { useMessages } from '../../i18n/messages';
import { apiErrorCode, apiErrorMessage, isApiError } from '../../lib/api-error';

export interface RecordErrorStateProps {
  error: unknown;
  /** Known to be absent without asking (a malformed id in the URL). */
  notFound?: boolean;
  notFoundTitle: string;
  notFoundDescription: string;
  errorTitle: string;
  onRetry: () => void;
  retrying?: boolean;
  /** Where "not found" and "forbidden" offer to go instead. */
  back?: { to: string; label: string };
}

/**
 * Why a record page has nothing to show: absent (404), not allowed (403, the server's sentence)
 * or a failure worth retrying.
 */
export function RecordErrorState({
  error,
  notFound = false,
  notFoundTitle,
  notFoundDescription,
  errorTitle,
  onRetry,
  retrying,
  back,
}: RecordErrorStateProps) {
  const m = useMessages();
  const code = apiErrorCode(error);
  const backLink = back ? (
    <Link to={back.to} className={buttonClassName({ variant: 'secondary' })}>
      {back.label}
    </Link>
  ) : undefined;

  if (notFound || code === 'NOT_FOUND') {
    return (
      <>
        <title>{m.app.documentTitle(notFoundTitle)}</title>
        <EmptyState
          className="py-16"
          icon={<SearchX aria-hidden="true" />}
          title={notFoundTitle}
          description={notFoundDescription}
          action={backLink}
        />
      </>
    );
  }
  if (code === 'FORBIDDEN' && isApiError(error)) {
    return (
      <EmptyState
        className="py-16"
        icon={<ShieldOff aria-hidden="true" />}
        title={m.common.forbiddenTitle}
        description={error.message}
        action={backLink}
      />
    );
  }
  return (
    <ErrorState
      className="py-16"
      title={errorTitle}
      message={apiErrorMessage(error, m)}
      retryLabel={m.common.retry}
      onRetry={onRetry}
      retrying={retrying ?? false}
    />
  );
}
