import type { Job, JobStatus } from '@app/contracts';
import { cn } from '@app/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader } from 'lucide-react';
import { useCallback, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../i18n/list-strings';
import { useMessages } from '../../i18n/messages';
import { useTRPC } from '../../lib/trpc';
import { jobTitle } from './job-format';
import { onWatchJob, useJobFinishedToast, watchedJobs, watchJob } from './job-watch';

const LIVE: JobStatus[] = ['queued', 'running', 'cancelling'];
/** While a job moves, the header looks again this often; when none does, it waits for a reason (a submission, focus). */
const POLL_MS = 3_000;

/**
 * The caller's jobs still moving, bulk changes and imports alike (the list leaves dry runs out:
 * their dialog shows them). A job watched anew (submitted from any page, an import's included)
 * is looked for at once: until then nothing here was moving, so nothing was polling.
 */
function useLiveJobs() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useEffect(
    () => onWatchJob(() => void queryClient.invalidateQueries(trpc.jobs.list.pathFilter())),
    [queryClient, trpc],
  );
  const query = useQuery(
    trpc.jobs.list.queryOptions(
      { filters: { status: LIVE }, perPage: 10 },
      { refetchInterval: (q) => (q.state.data?.rows.length ? POLL_MS : false) },
    ),
  );
  return query.data?.rows ?? [];
}

/**
 * Watches the jobs seen moving; when a watched one is not among them, asks where it ended and
 * says so (see job-watch.ts) — looked at whenever the live list changes, and as soon as a job is
 * watched anew (it may be over before the live list ever shows it). Asked once per job while it
 * is over: a failed look is not repeated.
 */
function useFinishToasts(live: readonly Job[]) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const finished = useJobFinishedToast();
  const asked = useRef(new Set<number>());
  const liveKey = live.map((job) => job.id).join(',');
  const liveNow = useRef(new Set<number>());
  const askAboutWatched = useCallback(() => {
    for (const id of watchedJobs()) {
      if (liveNow.current.has(id) || asked.current.has(id)) continue;
      asked.current.add(id);
      void queryClient
        .fetchQuery(trpc.jobs.show.queryOptions({ id }, { staleTime: 0 }))
        .then(({ item: job }) => {
          if (!finished(job)) asked.current.delete(id);
        })
        .catch(() => undefined);
    }
  }, [trpc, queryClient, finished]);
  useEffect(() => {
    liveNow.current = new Set(liveKey ? liveKey.split(',').map(Number) : []);
    for (const id of liveNow.current) watchJob(id, false);
    askAboutWatched();
  }, [liveKey, askAboutWatched]);
  useEffect(() => onWatchJob(askAboutWatched), [askAboutWatched]);
}

/**
 * In the header on every page while the caller has jobs queued or running (read from the
 * server, so it survives a reload): how many, linking to the job (or the list of them).
 */
export function JobsIndicator() {
  const m = useMessages();
  const t = m.jobs.indicator;
  const live = useLiveJobs();
  useFinishToasts(live);
  const first = live[0];
  if (!first) return null;
  // One job is named by its title; several are counted.
  const title = live.length === 1 ? jobTitle(first, m) : null;
  const to = live.length === 1 ? `/jobs/${first.id}` : '/jobs?filters[status][]=queued&filters[status][]=running';
  return (
    <Link
      to={to}
      className={cn(
        'inline-flex h-8 items-center gap-1.5 rounded-full border border-primary/30 bg-primary/10 px-2.5 text-xs font-medium text-foreground',
        'transition-colors hover:bg-primary/15',
      )}
    >
      <Loader aria-hidden="true" className="size-3.5 animate-spin text-primary motion-reduce:animate-none" />
      {/* Named by the whole sentence; a phone shows only the count, beside the spinner. */}
      <span className="sr-only">{title ? t.one(title) : t.label(live.length)}</span>
      {title ? (
        <span aria-hidden="true" className="min-w-0">
          <span className="tabular-nums sm:hidden">{formatCount(1)}</span>
          <span className="block max-w-72 truncate max-sm:hidden">{title}</span>
        </span>
      ) : (
        <span aria-hidden="true">
          <span className="tabular-nums">{formatCount(live.length)}</span>
          <span className="max-sm:hidden">{t.rest(live.length)}</span>
        </span>
      )}
    </Link>
  );
}
