/**
 * Whether this instance is serving anyone: the job runner's cue to give way (runner.ts). A job's
 * chunk and a person's request share the event loop, the cores and the database; a runner that
 * knows for how long someone was being served during a chunk pauses for that long (times
 * JOBS_NICE_RATIO) after it, and one on an idle instance runs at full speed.
 */
export interface RequestActivity {
  /** A request began; `ended` is called once when its response is done or its client went away. */
  began(): void;
  ended(): void;
  /**
   * Milliseconds, since the process began, during which at least one request was in flight: the
   * difference over a chunk is how long someone was being served while it ran.
   */
  servedMs(): number;
}

export function createRequestActivity(now: () => number = () => performance.now()): RequestActivity {
  let inFlight = 0;
  let total = 0;
  let since = 0;
  return {
    began() {
      if (inFlight === 0) since = now();
      inFlight += 1;
    },
    ended() {
      if (inFlight === 0) return;
      inFlight -= 1;
      if (inFlight === 0) total += now() - since;
    },
    servedMs() {
      return inFlight > 0 ? total + (now() - since) : total;
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
