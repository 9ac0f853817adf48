import type { SessionInfo } from '@app/contracts';
import { Badge, Button, Skeleton } from '@app/ui';
import { Monitor, MonitorSmartphone, Smartphone, Tablet } from 'lucide-react';
import type { ReactNode } from 'react';
import { useSessionsMessages } from '../../i18n/sessions-messages';
import { QueryStates } from '../errors/query-states';
import type { RecordQuery } from '../errors/record-page';
import { type DeviceKind, describeUserAgent } from '../../lib/user-agent';

export type SessionListQuery = RecordQuery<{ items: SessionInfo[] }>;

export interface SessionListProps {
  query: SessionListQuery;
  empty: ReactNode;
  /**
   * The button's words ("Sign out", "End session") and what assistive tech hears after them to
   * tell the rows apart ("of Chrome on Linux"); absent, no button is shown.
   */
  end?: { label: string; device: (device: string) => string; onEnd: (session: SessionInfo) => void } | undefined;
  /** The session being ended, whose button spins. */
  endingId?: string | null;
  /** Shown instead of the list when it could not be loaded (a refusal worth explaining, not retrying). */
  errorContent?: ReactNode;
}

const ICONS: Record<DeviceKind, typeof Monitor> = {
  desktop: Monitor,
  mobile: Smartphone,
  tablet: Tablet,
  other: MonitorSmartphone,
};

/** This device first, then the most recently active. */
const byRecency = (items: readonly SessionInfo[]) =>
  [...items].sort(
    (a, b) => Number(b.current) - Number(a.current) || Date.parse(b.last_seen_at) - Date.parse(a.last_seen_at),
  );

/** "Chrome on Linux", from a stored user agent; the raw string stays available as a tooltip. */
export function useDeviceName() {
  const m = useSessionsMessages();
  return (userAgent: string | null) => {
    const device = describeUserAgent(userAgent);
    return { ...device, name: m.sessions.device(device.client, device.os) };
  };
}

function SessionRow({ session, end, ending }: { session: SessionInfo; end: SessionListProps['end']; ending: boolean }) {
  const m = useSessionsMessages();
  const t = m.sessions.list;
  const device = useDeviceName()(session.user_agent);
  const Icon = ICONS[device.kind];
  return (
    <li className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 gap-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-surface-muted text-muted-foreground ring-1 ring-border ring-inset">
          <Icon aria-hidden="true" className="size-4" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-sm font-semibold text-foreground" title={m.sessions.rawUserAgent(session.user_agent)}>
              {device.name}
            </h3>
            {session.current ? (
              <Badge tone="success" dot>
                {t.thisDevice}
              </Badge>
            ) : null}
          </div>
          <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
            <div className="flex gap-1">
              <dt>{t.ip}:</dt>
              <dd className="font-mono break-all text-foreground/80">{session.ip ?? t.noIp}</dd>
            </div>
            <div className="flex gap-1">
              <dt>{t.signedIn}:</dt>
              <dd>
                <time dateTime={session.created_at} title={m.common.dateTime(session.created_at)}>
                  {m.common.dateTime(session.created_at)}
                </time>
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>{t.lastActive}:</dt>
              <dd>
                <time dateTime={session.last_seen_at} title={m.common.dateTime(session.last_seen_at)}>
                  {t.ago(session.last_seen_at)}
                </time>
              </dd>
            </div>
          </dl>
        </div>
      </div>
      {end ? (
        <Button
          variant="secondary"
          size="sm"
          className="ml-12 self-start sm:ml-0 sm:self-center"
          loading={ending}
          onClick={() => end.onEnd(session)}
        >
          {/* The name starts with the visible words, so speech input ("click Sign out") finds it. */}
          {end.label} <span className="sr-only">{end.device(device.name)}</span>
        </Button>
      ) : null}
    </li>
  );
}

/** Signed-in browsers and devices: which, from where, since when, last seen; the current one marked. */
export function SessionList({ query, empty, end, endingId = null, errorContent }: SessionListProps) {
  const m = useSessionsMessages();
  const t = m.sessions.list;
  return (
    <QueryStates
      query={query}
      loading={{
        label: t.loading,
        row: (
          <div className="flex gap-3 px-5 py-4">
            <Skeleton className="size-9 rounded-md" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-full max-w-sm" />
            </div>
          </div>
        ),
      }}
      failed={{ title: t.errorTitle, retry: t.retry, content: errorContent }}
    >
      {(data) =>
        data.items.length === 0 ? (
          empty
        ) : (
          <ul aria-label={t.label} className="divide-y divide-border">
            {byRecency(data.items).map((session) => (
              <SessionRow key={session.id} session={session} end={end} ending={endingId === session.id} />
            ))}
          </ul>
        )
      }
    </QueryStates>
  );
}
