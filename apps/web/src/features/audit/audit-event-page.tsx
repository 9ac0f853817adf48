import { AUDIT_ROW_TARGETS, type AuditItem } from '@app/contracts';
import { Badge, Card, CardDescription, CardHeader, CardTitle, DescriptionList } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../i18n/dates';
import { useAuditMessages } from '../../i18n/audit-messages';
import { useTRPC } from '../../lib/trpc';
import { useCan } from '../auth/use-session';
import { RecordPage } from '../errors/record-page';
import { JobName } from '../jobs/job-name';
import { useIdParam } from '../../lib/use-id-param';
import { actionLabel, actionTone, actorText, targetText, valueText, viaText } from './audit-format';
import { auditListHref } from './audit-list-state';
import { ChangeList } from './change-list';
import { isJobEvent, jobContextItems } from './job-event-details';

const linkClass = 'rounded-sm font-medium underline-offset-4 hover:underline';

/** `/audit/:id`: one event in full — who, when, from where, every target and each field's before and after. */
export function AuditEventPage() {
  const m = useAuditMessages();
  const trpc = useTRPC();
  const id = useIdParam();
  const show = useQuery({ ...trpc.audit.show.queryOptions({ id: id ?? 0 }), enabled: id !== null });

  return (
    <RecordPage
      id={id}
      query={show}
      backTo="/audit"
      strings={m.audit.event}
      render={(data) => <AuditEvent event={data.item} />}
    />
  );
}

function AuditEvent({ event }: { event: AuditItem }) {
  const m = useAuditMessages();
  const can = useCan();
  const t = m.audit.event;
  const canOpenUsers = can['users.view'] === true;
  const userLink = (userId: number, text: string) =>
    canOpenUsers ? (
      <Link to={`/users/${userId}`} className={linkClass}>
        {text}
      </Link>
    ) : (
      text
    );
  const context = Object.entries(event.context ?? {});

  return (
    <>
      <title>{m.app.documentTitle(t.title(event.id))}</title>
      <div className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1">
        <h1 className="text-2xl font-semibold tracking-tight text-foreground">{actionLabel(event.action, m)}</h1>
        <Badge tone={actionTone(event.action)}>{t.title(event.id)}</Badge>
      </div>
      <p className="mt-1 text-sm text-muted-foreground">
        <time dateTime={event.occurred_at}>{m.common.dateTime(event.occurred_at)}</time>
      </p>

      <div className="mt-8 grid gap-6 lg:grid-cols-3 lg:items-start">
        <Card aria-labelledby="event-details" className="overflow-hidden lg:col-span-2">
          <CardHeader className="pb-3">
            <CardTitle id="event-details">{t.detailsTitle}</CardTitle>
          </CardHeader>
          <DescriptionList
            className="border-t border-border"
            items={[
              {
                term: t.when,
                description: (
                  <time dateTime={event.occurred_at}>{formatDate(event.occurred_at, 'full', m.app.locale)}</time>
                ),
              },
              {
                term: t.who,
                description:
                  event.actor_id && event.actor_name ? userLink(event.actor_id, event.actor_name) : actorText(event, m),
              },
              { term: t.action, description: <span className="font-mono text-xs">{event.action}</span> },
              { term: t.through, description: viaText(event.via, m) },
              {
                term: t.ip,
                description: event.ip ? (
                  <Link to={auditListHref({ ip: event.ip })} className={`${linkClass} font-mono text-xs`}>
                    {event.ip}
                  </Link>
                ) : (
                  m.audit.values.empty
                ),
              },
              {
                term: t.requestId,
                description: (
                  <span className="font-mono text-xs break-all">{event.request_id ?? m.audit.values.empty}</span>
                ),
              },
            ]}
          />
        </Card>

        <Card aria-labelledby="event-targets" className="overflow-hidden">
          <CardHeader className="pb-3">
            <div>
              <CardTitle id="event-targets">{t.targetsTitle}</CardTitle>
              <CardDescription>
                {event.target_count === 0
                  ? m.audit.values.none
                  : m.audit.targetsCount(event.target_count, event.target_type)}
              </CardDescription>
            </div>
          </CardHeader>
          <EventTargets event={event} userLink={userLink} />
        </Card>

        {/* A job's events change no field of their own: what the job did is its details, below. */}
        {isJobEvent(event) && Object.keys(event.changes).length === 0 && event.hidden_changes.length === 0 ? null : (
          <Card aria-labelledby="event-changes" className="lg:col-span-2">
            <CardHeader className="pb-3">
              <div>
                <CardTitle id="event-changes">{t.changesTitle}</CardTitle>
                <CardDescription>{t.changesDescription}</CardDescription>
              </div>
            </CardHeader>
            <ChangeList changes={event.changes} hidden={event.hidden_changes} className="px-5 pb-5" />
          </Card>
        )}

        {context.length > 0 ? (
          <Card aria-labelledby="event-context" className="overflow-hidden lg:col-span-2">
            <CardHeader className="pb-3">
              <CardTitle id="event-context">{t.contextTitle}</CardTitle>
            </CardHeader>
            <DescriptionList
              className="border-t border-border"
              items={
                isJobEvent(event)
                  ? jobContextItems(event, m)
                  : context.map(([key, value]) => ({
                      id: key,
                      term: <span className="font-mono text-xs">{key}</span>,
                      description: <span className="break-all">{valueText(key, value, m)}</span>,
                    }))
              }
            />
          </Card>
        ) : null}
      </div>
    </>
  );
}

function EventTargets({ event, userLink }: { event: AuditItem; userLink: (id: number, text: string) => ReactNode }) {
  const m = useAuditMessages();
  const t = m.audit.event;
  if (event.target_count === 0) return null;
  if (event.target_type === 'job') {
    return (
      <ul className="space-y-1.5 border-t border-border px-5 py-3 text-sm">
        {event.target_ids.map((id) => (
          <li key={id}>
            <JobName id={id} job={event.target_jobs[String(id)]} m={m} />
          </li>
        ))}
      </ul>
    );
  }
  // Names come with the first targets that are users; the rest of a large bulk is listed by id.
  const shown = event.target_type === 'user' ? event.target_ids.slice(0, AUDIT_ROW_TARGETS) : [];
  const rest = event.target_ids.slice(shown.length);
  return (
    <div className="border-t border-border px-5 py-3 text-sm">
      {shown.length > 0 ? (
        <ul className="space-y-1.5">
          {shown.map((id) => (
            <li key={id} className="flex items-center justify-between gap-3">
              {event.target_names[String(id)] ? userLink(id, targetText(event, id, m)) : targetText(event, id, m)}
              {event.target_count === 1 ? (
                <Link to={auditListHref({ user_id: id })} className={`${linkClass} text-xs text-muted-foreground`}>
                  {t.allTargetEvents}
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {rest.length > 0 ? (
        <>
          <p className="mt-3 text-muted-foreground">{t.moreTargetIds(rest.length)}</p>
          <p className="mt-1 max-h-40 overflow-y-auto font-mono text-xs break-words text-muted-foreground">
            {rest.join(', ')}
          </p>
        </>
      ) : null}
    </div>
  );
}
