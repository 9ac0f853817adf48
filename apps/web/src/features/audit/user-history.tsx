import type { AuditRow } from '@app/contracts';
import { Badge, Card, CardDescription, CardHeader, CardTitle, cn, Skeleton } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { useAuditMessages } from '../../i18n/audit-messages';
import { useTRPC } from '../../lib/trpc';
import { QueryStates } from '../errors/query-states';
import { actionLabel, actionTone, actorText, otherTarget, viaText } from './audit-format';
import { auditListHref } from './audit-list-state';
import { ChangeList } from './change-list';

/** Events shown on the user page; the rest are a link away. */
const RECENT = 10;

const linkClass = 'rounded-sm font-medium underline-offset-4 hover:underline';

/** Whom or what the user acted on ("about Ann Lee and 2 more"); their name is linked while the account exists. */
function TargetLine({ target, more }: { target: { text: string; userId: number | null }; more: number }) {
  const t = useAuditMessages().audit.history;
  return (
    <span className="text-foreground">
      {`${t.about} `}
      {target.userId === null ? (
        <span className="font-medium">{target.text}</span>
      ) : (
        <Link to={`/users/${target.userId}`} className={linkClass}>
          {target.text}
        </Link>
      )}
      {more > 0 ? ` ${t.more(more)}` : null}
    </span>
  );
}

/**
 * One event. On the user's own page its subject is implied, so the line names the other party:
 * who acted when the user was acted on, and whom they acted on when they were the actor (else
 * "Edited a user · Name A → B" would read as their own name changing).
 */
function HistoryEntry({ event, userId }: { event: AuditRow; userId: number }) {
  const m = useAuditMessages();
  const t = m.audit.history;
  const who = actorText(event, m);
  const target = otherTarget(event, userId, m);
  const more = event.target_count - 1;
  return (
    <li className="px-5 py-4">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <Badge tone={actionTone(event.action)}>{actionLabel(event.action, m)}</Badge>
        {target ? (
          <TargetLine target={target} more={more} />
        ) : (
          <span className="text-foreground">{who === m.audit.notSignedIn ? t.byNobody : t.by(who)}</span>
        )}
        <span aria-hidden="true" className="text-muted-foreground">
          ·
        </span>
        <time dateTime={event.occurred_at} className="text-muted-foreground tabular-nums">
          {m.common.dateTime(event.occurred_at)}
        </time>
        <Link to={`/audit/${event.id}`} className={cn(linkClass, 'ml-auto inline-flex items-center gap-1 text-xs')}>
          {t.openEvent}
          <span className="sr-only">{` #${event.id}`}</span>
          <ArrowRight aria-hidden="true" className="size-3" />
        </Link>
      </div>
      <p className="mt-1 text-xs text-muted-foreground">
        {viaText(event.via, m)}
        {event.ip ? (
          <>
            {' · '}
            <span className="font-mono">{event.ip}</span>
          </>
        ) : null}
        {!target && more > 0 ? ` · ${t.more(more)}` : null}
      </p>
      {Object.keys(event.changes).length + event.hidden_changes.length > 0 ? (
        <ChangeList changes={event.changes} hidden={event.hidden_changes} className="mt-3" />
      ) : null}
    </li>
  );
}

/**
 * A user's History on their page: the latest events they were a target of or took part in, each
 * with who, when, the door and IP, and every changed field's before and after.
 */
export function UserHistory({ userId, className }: { userId: number; className?: string }) {
  const m = useAuditMessages();
  const t = m.audit.history;
  const trpc = useTRPC();
  const history = useQuery(trpc.audit.list.queryOptions({ page: 1, perPage: RECENT, filters: { user_id: userId } }));
  const meta = history.data?.meta;

  return (
    <Card aria-labelledby="user-history-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="pb-3">
        <div>
          <CardTitle id="user-history-title">{t.title}</CardTitle>
          <CardDescription>{t.description}</CardDescription>
        </div>
      </CardHeader>
      <QueryStates
        query={history}
        loading={{
          label: t.loading,
          rows: 3,
          className: 'space-y-3 border-t border-border px-5 py-4',
          row: <Skeleton className="h-10 w-full" />,
        }}
        failed={{ title: t.error, retry: t.retry, inline: true }}
      >
        {(data) =>
          data.rows.length === 0 ? (
            <p className="border-t border-border px-5 py-6 text-center text-sm text-muted-foreground">{t.empty}</p>
          ) : (
            <ol className="divide-y divide-border border-t border-border">
              {data.rows.map((event) => (
                <HistoryEntry key={event.id} event={event} userId={userId} />
              ))}
            </ol>
          )
        }
      </QueryStates>
      {meta && meta.total > (history.data?.rows.length ?? 0) ? (
        <div className="border-t border-border px-5 py-3 text-sm">
          <Link to={auditListHref({ user_id: userId })} className={linkClass}>
            {t.seeAll(meta.total, meta.totalExact)}
          </Link>
        </div>
      ) : null}
    </Card>
  );
}
