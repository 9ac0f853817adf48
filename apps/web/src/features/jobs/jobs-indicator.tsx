import type { Job, JobStatus } from '@app/contracts';
import { cn } from '@app/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../i18n/list-strings';
import { useMessages } from '../../i18n/messages';
import { useTRPC } from '../../lib/trpc';
import { useJobFinishedToast, watchedJobs, watchJob } from './job-watch';

const LIVE: JobStatus[] = ['queued', 'running', 'cancelling'];
/** While a job moves, the header looks again this often; when none does, it waits for a reason (a submission, focus). */
const POLL_MS = 3_000;

/** The caller's jobs still moving (dry runs left out: their dialog shows them). */
function useLiveJobs() {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.jobs.list.queryOptions(
      { filters: { status: LIVE }, perPage: 10 },
      { refetchInterval: (q) => (q.state.data?.rows.some((job) => !job.dryRun) ? POLL_MS : false) },
    ),
  );
  return (query.data?.rows ?? []).filter((job) => !job.dryRun);
}

/**
 * Watches the jobs seen moving; when a watched one leaves the live list, asks where it ended and
 * says so (see job-watch.ts). Asked once per job: a failed look is not repeated.
 */
function useFinishToasts(live: readonly Job[]) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const finished = useJobFinishedToast();
  const asked = useRef(new Set<number>());
  const liveKey = live.map((job) => job.id).join(',');
  useEffect(() => {
    const now = new Set(liveKey ? liveKey.split(',').map(Number) : []);
    for (const id of now) watchJob(id);
    for (const id of watchedJobs()) {
      if (now.has(id) || asked.current.has(id)) continue;
      asked.current.add(id);
      void queryClient
        .fetchQuery(trpc.jobs.show.queryOptions({ id }, { staleTime: 0 }))
        .then(({ item: job }) => {
          if (!finished(job)) asked.current.delete(id);
        })
        .catch(() => undefined);
    }
  }, [liveKey, trpc, queryClient, finished]);
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
      <span className="sr-only">{t.label(live.length)}</span>
      <span aria-hidden="true">
        <span className="tabular-nums">{formatCount(live.length)}</span>
        <span className="max-sm:hidden">{t.rest(live.length)}</span>
      </span>
    </Link>
  );
}
