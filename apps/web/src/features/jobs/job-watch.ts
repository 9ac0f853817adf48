import type { Job } from '@app/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { useMessages } from '../../i18n/messages';
import type { BulkJobs } from '../../lib/resource-list/bulk-actions';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import { countsText, isLiveJob, jobTitle } from './job-format';
import { JobProgressBar } from './job-progress';
import { JobSkips } from './job-skips';
import { useJob } from './use-job';

/**
 * The jobs this tab watches: those it submitted (a bulk change, an import, an undo) and those the
 * header saw moving. Whoever first sees one of them over (the header, the job's page, the import
 * page) says so once, in a toast.
 */
const watched = new Set<number>();
/** Told of each job watched anew: the header, which then looks for it among the jobs moving. */
const listeners = new Set<(id: number) => void>();

/** Watches job `id`; `tell: false` for the header's own (it has just seen the job). */
export const watchJob = (id: number, tell = true): void => {
  if (watched.has(id)) return;
  watched.add(id);
  if (tell) for (const listener of listeners) listener(id);
};

/** Calls `listener` with every job watched from now on; returns the way to stop. */
export function onWatchJob(listener: (id: number) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const watchedJobs = (): number[] => [...watched];

/** A toast for a watched job that is over (once per job); false when there is nothing to say. */
export function useJobFinishedToast() {
  const m = useMessages();
  const t = m.jobs.finishedToast;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(
    (job: Job): boolean => {
      if (isLiveJob(job) || !watched.delete(job.id)) return false;
      const name = jobTitle(job, m);
      const status = job.status as 'succeeded' | 'failed' | 'cancelled';
      const show = status === 'succeeded' ? toast.success : status === 'failed' ? toast.error : toast.info;
      const page = `/jobs/${job.id}`;
      show(t[status](name), {
        id: `job-${job.id}`,
        description: countsText(job, m),
        // On the job's own page, "View" would lead where one already is.
        ...(pathname === page ? {} : { action: { label: t.view, onClick: () => void navigate(page) } }),
      });
      // What the job changed shows in every list of users, and the job in the list of jobs.
      void queryClient.invalidateQueries(trpc.users.pathFilter());
      void queryClient.invalidateQueries(trpc.jobs.list.pathFilter());
      return true;
    },
    [m, t, trpc, queryClient, navigate, pathname],
  );
}

/** A submitted job handed over by the page that started it: watched, listed, and its page opened. */
function useJobHandOff() {
  const m = useMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (job: Job) => {
      watchJob(job.id);
      toast.success(m.jobs.submitted);
      void queryClient.invalidateQueries(trpc.jobs.list.pathFilter());
      void navigate(`/jobs/${job.id}`);
    },
    [m, trpc, queryClient, navigate],
  );
}

/** Stops a job nobody waits for any more (a dry run whose dialog was closed); a refusal changes nothing. */
function useStopJob() {
  const client = useTRPCClient();
  return useCallback(
    (id: number) => {
      void client.jobs.cancel.mutate({ id }).catch(() => undefined);
    },
    [client],
  );
}

/**
 * What the list kit's bulk dialogs need of jobs: follow one, stop it, hand it over, draw it. The
 * drawings load with the dialog that shows them, not with every page that may open one.
 */
export const bulkJobs: BulkJobs = {
  useJob,
  useCancel: useStopJob,
  useHandOff: useJobHandOff,
  Progress: JobProgressBar,
  Skips: JobSkips,
};
