import { isFinishedJob, type JobShow } from '@app/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { etaSeconds, type ProgressSample, rateOf } from './job-format';

/** How often a job still moving is asked about: often enough for a bar that visibly moves. */
export const JOB_POLL_MS = 1_000;

/** One job (`jobs.show`), asked again every second until it is over. */
export function useJob(id: number | null, pollMs = JOB_POLL_MS) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.jobs.show.queryOptions(
      { id: id ?? 0 },
      {
        refetchInterval: (q) => (q.state.data && isFinishedJob(q.state.data.item.status) ? false : pollMs),
      },
    ),
    enabled: id !== null,
  });
}

/**
 * Rate (users/s) and time left, from the progress seen over time: the server keeps counts, not
 * speeds, so the page measures what it watches. Before two readings differ there is neither.
 */
export function useJobPace(data: JobShow | undefined) {
  const samples = useRef<ProgressSample[]>([]);
  const [pace, setPace] = useState<{ rate: number | null; eta: number | null }>({ rate: null, eta: null });
  const processed = data?.item.progress.processed;
  const total = data?.item.progress.total ?? 0;
  const running = data?.item.status === 'running';
  useEffect(() => {
    if (processed === undefined || !running) return;
    const list = samples.current;
    if (list.at(-1)?.processed !== processed) list.push({ at: Date.now(), processed });
    // Only the recent ones count; keep the list short.
    if (list.length > 60) list.splice(0, list.length - 60);
    const rate = rateOf(list);
    setPace({ rate, eta: etaSeconds({ total, processed }, rate) });
  }, [processed, total, running]);
  return running ? pace : { rate: null, eta: null };
}
