import { type AuditRow, SIGN_IN_ACTIONS } from '@app/contracts';
import { Badge, Card, CardDescription, CardHeader, CardTitle, cn, Pagination, Skeleton } from '@app/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSessionsMessages } from '../../i18n/sessions-messages';
import { useTRPC } from '../../lib/trpc';
import { QueryStates } from '../errors/query-states';
import { useDeviceName } from './session-list';

const PER_PAGE_OPTIONS = [10, 25, 50] as const;

function SignInEntry({ row }: { row: AuditRow }) {
  const m = useSessionsMessages();
  const t = m.sessions.signIns;
  const userAgent = row.user_agent;
  const device = useDeviceName()(userAgent);
  const failed = row.action === 'auth.loginFailed';
  return (
    <li className="grid gap-1 px-5 py-3 text-sm sm:grid-cols-[8rem_1fr_auto] sm:items-center sm:gap-4">
      <span>
        <Badge tone={failed ? 'danger' : 'success'} dot>
          {failed ? t.failed : t.succeeded}
        </Badge>
      </span>
      <span className="min-w-0">
        <span className="block truncate text-foreground" title={m.sessions.rawUserAgent(userAgent)}>
          <span className="sr-only">{t.device}: </span>
          {userAgent ? device.name : t.none}
        </span>
        <span className="block font-mono text-xs break-all text-muted-foreground">
          <span className="sr-only">{t.ip}: </span>
          {row.ip ?? t.none}
        </span>
      </span>
      <time dateTime={row.occurred_at} className="text-xs text-muted-foreground tabular-nums sm:text-right">
        {m.common.dateTime(row.occurred_at)}
      </time>
    </li>
  );
}

/**
 * A user's sign-ins on their page (audit.view): the audit log's `auth.login` and
 * `auth.loginFailed` events about them, newest first, a page at a time.
 */
export function SignInHistory({ userId, className }: { userId: number; className?: string }) {
  const m = useSessionsMessages();
  const t = m.sessions.signIns;
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(PER_PAGE_OPTIONS[0]);
  const history = useQuery(
    trpc.audit.list.queryOptions(
      { page, perPage, filters: { user_id: userId, action: [...SIGN_IN_ACTIONS] } },
      { placeholderData: keepPreviousData },
    ),
  );

  return (
    <Card aria-labelledby="user-sign-ins-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="pb-3">
        <div>
          <CardTitle id="user-sign-ins-title">{t.title}</CardTitle>
          <CardDescription>{t.description}</CardDescription>
        </div>
      </CardHeader>
      <QueryStates
        query={history}
        loading={{
          label: t.loading,
          rows: 3,
          className: 'space-y-3 border-t border-border px-5 py-4',
          row: <Skeleton className="h-8 w-full" />,
        }}
        failed={{ title: t.error, retry: t.retry, inline: true }}
      >
        {(data) =>
          data.rows.length === 0 ? (
            <p className="border-t border-border px-5 py-6 text-center text-sm text-muted-foreground">{t.empty}</p>
          ) : (
            <>
              <ol
                aria-label={t.label}
                aria-busy={history.isPlaceholderData || undefined}
                className={cn(
                  'divide-y divide-border border-t border-border transition-opacity',
                  history.isPlaceholderData && 'opacity-60',
                )}
              >
                {data.rows.map((row) => (
                  <SignInEntry key={row.id} row={row} />
                ))}
              </ol>
              <div className="border-t border-border px-3 py-3 sm:px-4">
                <Pagination
                  page={page}
                  pageCount={data.meta.pageCount}
                  perPage={perPage}
                  total={data.meta.total}
                  totalExact={data.meta.totalExact}
                  perPageOptions={PER_PAGE_OPTIONS}
                  onPageChange={setPage}
                  onPerPageChange={(next) => {
                    setPerPage(next);
                    setPage(1);
                  }}
                  labels={t.pagination}
                />
              </div>
            </>
          )
        }
      </QueryStates>
    </Card>
  );
}
