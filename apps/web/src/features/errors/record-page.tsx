import { Card, cn, Skeleton } from '@app/ui';
import type { ReactNode } from 'react';
import { BackLink } from '../../components/back-link';
import { RecordErrorState } from './record-error-state';

/** What the page reads of its `useQuery` result. */
export interface RecordQuery<TData> {
  data: TData | undefined;
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface RecordPageStrings {
  /** The back link's words ("‹ Webhooks"). */
  back: string;
  /** The not-found and forbidden states' way out, when it reads differently from `back`. */
  backToList?: string;
  loading: string;
  notFoundTitle: string;
  notFoundDescription: string;
  errorTitle: string;
}

export interface RecordPageProps<TData, TId> {
  /** The record's id(s) from the URL; null when malformed, which is shown as not found without asking. */
  id: TId | null;
  query: RecordQuery<TData>;
  /** Where the back link and the not-found state lead. */
  backTo: string;
  strings: RecordPageStrings;
  /** Replaces the default title-and-card placeholder, for pages shaped otherwise. */
  skeleton?: ReactNode;
  /** The loaded record; the id comes along already known to be valid. */
  render: (data: TData, id: TId) => ReactNode;
}

/**
 * A page about one record: the way back, then the record, why there is none (absent, forbidden,
 * failed), or a placeholder while it loads.
 */
export function RecordPage<TData, TId>({ id, query, backTo, strings, skeleton, render }: RecordPageProps<TData, TId>) {
  return (
    <>
      <BackLink to={backTo} label={strings.back} />
      {query.data && id !== null ? (
        render(query.data, id)
      ) : query.isError || id === null ? (
        <RecordErrorState
          error={query.error}
          notFound={id === null}
          notFoundTitle={strings.notFoundTitle}
          notFoundDescription={strings.notFoundDescription}
          errorTitle={strings.errorTitle}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
          back={{ to: backTo, label: strings.backToList ?? strings.back }}
        />
      ) : (
        (skeleton ?? <RecordSkeleton label={strings.loading} />)
      )}
    </>
  );
}

/** A title and a card of lines; `titleClassName` sizes the title's bar to what it stands for. */
export function RecordSkeleton({ label, titleClassName = 'w-64' }: { label: string; titleClassName?: string }) {
  return (
    <div role="status" aria-label={label} className="mt-4 space-y-6">
      <Skeleton className={cn('h-7', titleClassName)} />
      <Card className="space-y-4 p-5">
        {[0, 1, 2, 3].map((row) => (
          <Skeleton key={row} className="h-4 w-3/5" />
        ))}
      </Card>
    </div>
  );
}
