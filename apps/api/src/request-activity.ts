/**
 * Whether this instance is serving anyone: background work's cue to give way. A job's chunk, a
 * mail going out and a person's request share the cores and the database (and, for a job, the
 * event loop): the job runner waits after each chunk, and the mail sender before its next
 * message, BACKGROUND_NICE_RATIO times how long someone was being served meanwhile; on an idle
 * instance both run at full speed.
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
  '/api/trpc/system.health',
  '/api/trpc/system.ready',
]);

export const isProbe = (url: string): boolean => PROBES.has(url.split('?')[0] ?? url);

/** A wait is cut to this, so background work asked to stop never waits long for its politeness. */
export const NICE_PAUSE_MAX_MS = 2_000;

/** The wait owed for `servedMs` of requests at `ratio` (0: none). */
export function niceWait(ratio: number, servedMs: number): number {
  if (ratio <= 0 || servedMs <= 0) return 0;
  return Math.min(NICE_PAUSE_MAX_MS, servedMs * ratio);
}

/**
 * Tells `listener`, every `everyMs`, how long requests were in flight since the last time (when
 * they were): how the mail sender, on a thread of its own, hears of the requests. Returns the stop.
 */
export function reportServed(activity: RequestActivity, listener: (ms: number) => void, everyMs = 100): () => void {
  let last = activity.servedMs();
  const timer = setInterval(() => {
    const now = activity.servedMs();
    const ms = now - last;
    last = now;
    if (ms > 0) listener(ms);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
