/**
 * Whether this instance is serving anyone: the job runner's cue to give way (runner.ts). A job's
 * chunk and a person's request share the event loop, the cores and the database; a runner that
 * knows someone is being served pauses after each chunk (JOBS_NICE_RATIO), and one on an idle
 * instance runs at full speed.
 */
export interface RequestActivity {
  /** A request began; `ended` is called once when its response is done or its client went away. */
  began(): void;
  ended(): void;
  /** Whether a request was in flight at any moment since `since` (a `performance.now()` time). */
  servedSince(since: number): boolean;
}

export function createRequestActivity(now: () => number = () => performance.now()): RequestActivity {
  let inFlight = 0;
  let lastEnded = Number.NEGATIVE_INFINITY;
  return {
    began() {
      inFlight += 1;
    },
    ended() {
      inFlight = Math.max(0, inFlight - 1);
      lastEnded = now();
    },
    servedSince(since) {
      return inFlight > 0 || lastEnded >= since;
    },
  };
}

/**
 * The checks a balancer or a scraper makes every second or so are nobody waiting: they do not
 * count, or a clustered instance would never run a job at full speed.
 */
const PROBES: ReadonlySet<string> = new Set([
  '/api/health',
  '/api/ready',
  '/api/metrics',
  '/trpc/system.health',
  '/trpc/system.ready',
]);

export const isProbe = (url: string): boolean => PROBES.has(url.split('?')[0] ?? url);
