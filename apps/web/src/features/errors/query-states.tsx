import { Button, ErrorState } from '@app/ui';
import { Fragment, type ReactNode } from 'react';
import { useMessages } from '../../i18n/messages';
import { apiErrorMessage } from '../../lib/api-error';
import type { RecordQuery } from './record-page';

export interface QueryStatesProps<TData> {
  query: RecordQuery<TData>;
  /** The loaded data. */
  children: (data: TData) => ReactNode;
  loading: {
    label: string;
    /** One placeholder row, shown `rows` times. */
    row: ReactNode;
    rows?: number;
    /** The rows' container; rows divided by rules unless given. */
    className?: string;
  };
  failed: {
    title: string;
    retry: string;
    /**
     * One line with Retry, for a card among others on a page (a user's history); otherwise
     * the full error state with the server's sentence, for a page's main list.
     */
    inline?: boolean;
    /** Replaces the default failure (a section that explains a refusal its own way). */
    content?: ReactNode;
  };
}

/**
 * What a list section shows for its query: the data, why it failed with a way to retry, or
 * placeholder rows while it loads. Data already shown stays while it refetches.
 */
export function QueryStates<TData>({ query, children, loading, failed }: QueryStatesProps<TData>) {
  const m = useMessages();
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) {
    if (failed.content !== undefined) return <>{failed.content}</>;
    const retry = () => void query.refetch();
    return failed.inline ? (
      <div className="flex items-center justify-between gap-3 border-t border-border px-5 py-4 text-sm">
        <p className="text-danger">{failed.title}</p>
        <Button variant="secondary" size="sm" onClick={retry} disabled={query.isFetching}>
          {failed.retry}
        </Button>
      </div>
    ) : (
      <ErrorState
        title={failed.title}
        message={apiErrorMessage(query.error, m)}
        retryLabel={failed.retry}
        onRetry={retry}
        retrying={query.isFetching}
      />
    );
  }
  return (
    <div role="status" aria-label={loading.label} className={loading.className ?? 'divide-y divide-border'}>
      {Array.from({ length: loading.rows ?? 2 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders never reorder
        <Fragment key={i}>{loading.row}</Fragment>
      ))}
    </div>
  );
}
