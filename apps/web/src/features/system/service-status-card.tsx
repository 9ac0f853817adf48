import { Badge, Button, Card, CardDescription, CardFooter, CardHeader, CardTitle, cn, ErrorState } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { formatDate } from '../../i18n/dates';
import { useStatusMessages } from '../../i18n/status-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { ServiceStatusRows, ServiceStatusSkeleton } from './service-status-rows';

export function ServiceStatusCard({ className }: { className?: string }) {
  const m = useStatusMessages();
  const trpc = useTRPC();
  // A readiness probe reports what it sees: no silent retries that would hide an outage.
  const ready = useQuery(trpc.system.ready.queryOptions(undefined, { retry: false, refetchOnWindowFocus: true }));
  const retry = () => void ready.refetch();

  const badge = ready.isPending ? (
    <Badge tone="neutral" dot>
      {m.status.checking}
    </Badge>
  ) : ready.isError ? (
    <Badge tone="danger" dot>
      {m.status.degraded}
    </Badge>
  ) : (
    <Badge tone="success" dot>
      {m.status.operational}
    </Badge>
  );

  return (
    <Card className={cn('overflow-hidden', className)} aria-labelledby="service-status-title">
      <CardHeader className="pb-4">
        <div className="min-w-0">
          <CardTitle id="service-status-title">{m.status.title}</CardTitle>
          <CardDescription>{m.status.description}</CardDescription>
        </div>
        {badge}
      </CardHeader>

      {ready.isPending ? (
        <ServiceStatusSkeleton label={m.status.loading} />
      ) : ready.isError ? (
        <ErrorState
          className="border-t border-border"
          title={apiErrorCode(ready.error) === 'UNAVAILABLE' ? m.status.databaseErrorTitle : m.status.errorTitle}
          message={apiErrorMessage(ready.error, m)}
          retryLabel={m.status.retry}
          onRetry={retry}
          retrying={ready.isFetching}
        />
      ) : (
        <>
          <ServiceStatusRows report={ready.data} />
          <CardFooter>
            <time dateTime={new Date(ready.dataUpdatedAt).toISOString()}>
              {m.status.lastChecked(formatDate(ready.dataUpdatedAt, 'time', m.app.locale))}
            </time>
            <Button variant="ghost" size="sm" onClick={retry} loading={ready.isFetching} className="-mr-2">
              {ready.isFetching ? null : <RefreshCw aria-hidden="true" />}
              {m.status.refresh}
            </Button>
          </CardFooter>
        </>
      )}
    </Card>
  );
}
