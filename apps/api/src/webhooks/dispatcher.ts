import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { isDatabaseUnreachable } from '../db/unavailable.js';
import { repeatAbout } from '../housekeeping/repeat.js';
import { wakeableSleep } from '../housekeeping/wakeable-sleep.js';
import { onNewDeliveries } from '../journal/signal.js';
import { type AgentPool, createAgentPool } from './agent-pool.js';
import { type ClaimedDelivery, claimDeliveries } from './claims.js';
import { type AttemptResult, deliver } from './deliver.js';
import { type Outcome, recordOutcomes } from './outcomes.js';
import { pruneWebhookHistory } from './retention.js';
import { openSecret, SecretUnavailable } from './secret-box.js';
import type { WebhooksSettings } from './settings.js';

export interface Dispatcher {
  /** Looks for due deliveries now instead of at the next poll. */
  nudge(): void;
  /** Stops claiming, lets the attempts in flight finish and records them. */
  stop(): Promise<void>;
}

export interface DispatcherDeps {
  db: Database;
  settings: WebhooksSettings;
  log: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
  /** For tests: the jitter's source. */
  random?: () => number;
}

/** Outcomes are written in batches of up to this many, or after this long, whichever comes first. */
const RECORD_BATCH = 100;
const RECORD_DELAY_MS = 20;
/** After a database error the dispatcher waits this long, doubling up to the maximum. */
const ERROR_BACKOFF_MS = 1_000;
const ERROR_BACKOFF_MAX_MS = 30_000;
/**
 * Leases a crashed claimer left are looked for at most this often, not in every claim: a lease
 * lasts twice the attempt's timeout, so a second more changes little, and the lookup was a
 * sixth of a claim's time.
 */
const LAPSED_LEASES_EVERY_MS = 1_000;

/** One attempt: the secret opened, then sent; a secret that cannot be opened is a failed attempt. */
function attemptDelivery(
  claim: ClaimedDelivery,
  settings: WebhooksSettings,
  agents: AgentPool,
): Promise<AttemptResult> {
  let secret: string;
  try {
    secret = openSecret(claim.secret, settings.secretKeys);
  } catch (err) {
    if (!(err instanceof SecretUnavailable)) throw err;
    return Promise.resolve({ ok: false, statusCode: null, latencyMs: 0, excerpt: null, error: err.message });
  }
  return deliver({ ...claim, secret }, { ...settings, agents });
}

/**
 * Starts a dispatcher: it claims due deliveries (up to `concurrency` in flight), sends each,
 * and records every outcome. It polls while idle, goes again at once after a full claim, and is
 * woken by this process's commits (signal.ts). Any number may run against one database: a
 * delivery is claimed by one of them (claims.ts). Whatever fails, the loop goes on: an attempt
 * that cannot be made is a logged failed attempt; a database error waits and retries.
 */
export function startDispatcher({ db, settings, log, random = Math.random }: DispatcherDeps): Dispatcher {
  let running = true;
  let inFlight = 0;
  const pending: Outcome[] = [];
  let recording: Promise<void> | null = null;
  let recordTimer: NodeJS.Timeout | null = null;
  const attempts = new Set<Promise<void>>();
  // Kept-alive connections per endpoint, at most one per attempt in flight (agent-pool.ts).
  const agents = createAgentPool({ maxSockets: settings.concurrency });
  // An unreachable database is an outage the instance rides out (requests answer 503 meanwhile):
  // one warning when it starts and one line when it ends, not an error every backoff.
  let outage = false;
  const databaseTrouble = (err: unknown, what: string, extra: Record<string, unknown> = {}) => {
    if (!isDatabaseUnreachable(err)) {
      log.error({ err, ...extra }, what);
    } else if (!outage) {
      outage = true;
      log.warn(
        { ...extra, error: err instanceof Error ? err.message : String(err) },
        `${what}: the database is unreachable`,
      );
    }
  };
  const databaseBack = () => {
    if (!outage) return;
    outage = false;
    log.info('webhook dispatcher: the database is reachable again');
  };

  // A wake-up that comes while the loop is busy (claiming) is kept, so the next sleep is skipped.
  const { sleep, wakeUp } = wakeableSleep();

  const record = async () => {
    while (pending.length) {
      const batch = pending.splice(0, RECORD_BATCH);
      try {
        const changes = await recordOutcomes(db, settings, batch, random);
        databaseBack();
        for (const id of changes.opened) log.warn({ webhookId: id }, 'webhook circuit opened: deliveries paused');
        for (const id of changes.closed) log.info({ webhookId: id }, 'webhook circuit closed: deliveries resumed');
        for (const id of changes.disabled) {
          log.warn({ webhookId: id }, 'webhook disabled: its deliveries have failed for too long');
        }
      } catch (err) {
        // Unrecorded: each stays `sending` until its lease ends, then is sent again (at least once).
        databaseTrouble(err, 'webhook outcomes could not be recorded', { deliveries: batch.length });
      }
      inFlight -= batch.length;
      wakeUp();
    }
  };
  // Attempts sent and not yet answered: when none is left, there is nothing to wait for.
  let sending = 0;
  const scheduleRecord = () => {
    if (recording) return;
    const atOnce = pending.length >= RECORD_BATCH || sending === 0;
    // A full batch, or the last attempt in flight has ended: a wait already started gains
    // nothing more, and nothing new is claimed until these are recorded (issue 25: the 20 ms
    // waited after the first outcome of each claim held one dispatcher to about 800/s).
    if (recordTimer && atOnce) {
      clearTimeout(recordTimer);
      recordTimer = null;
    }
    if (recordTimer) return;
    recordTimer = setTimeout(
      () => {
        recordTimer = null;
        recording = record().finally(() => {
          recording = null;
          if (pending.length) scheduleRecord();
        });
      },
      atOnce ? 0 : RECORD_DELAY_MS,
    );
  };

  const send = (claim: ClaimedDelivery) => {
    const startedAt = new Date();
    sending += 1;
    const attempt = attemptDelivery(claim, settings, agents).then((result) => {
      sending -= 1;
      const level = result.ok ? 'debug' : 'info';
      log[level](
        {
          webhookId: claim.webhookId,
          deliveryId: claim.id,
          eventId: claim.eventId,
          attempt: claim.attempt,
          status: result.statusCode,
          latencyMs: result.latencyMs,
          ...(result.error ? { error: result.error } : {}),
        },
        result.ok ? 'webhook delivered' : 'webhook attempt failed',
      );
      pending.push({ claim, result, startedAt, endedAt: new Date() });
      scheduleRecord();
    });
    attempts.add(attempt);
    void attempt.finally(() => attempts.delete(attempt));
  };

  const loop = async () => {
    let backoff = ERROR_BACKOFF_MS;
    let lapsedAt = 0;
    while (running) {
      const free = settings.concurrency - inFlight;
      if (free <= 0) {
        await sleep(settings.pollMs);
        continue;
      }
      let claimed: ClaimedDelivery[];
      try {
        const now = new Date();
        const lapsed = now.getTime() - lapsedAt >= LAPSED_LEASES_EVERY_MS;
        claimed = await claimDeliveries(db, settings, free, { now, lapsed });
        if (lapsed) lapsedAt = now.getTime();
        backoff = ERROR_BACKOFF_MS;
        databaseBack();
      } catch (err) {
        databaseTrouble(err, 'webhook deliveries could not be claimed; trying again');
        await sleep(backoff);
        backoff = Math.min(ERROR_BACKOFF_MAX_MS, backoff * 2);
        continue;
      }
      inFlight += claimed.length;
      for (const claim of claimed) send(claim);
      // A full claim: more may be due, go again at once; otherwise wait for a poll or a nudge.
      if (claimed.length < free && running) await sleep(settings.pollMs);
    }
  };

  // Retention: every instance prunes about hourly, at its own jittered times (housekeeping/repeat.ts).
  const prune = async () => {
    try {
      const done = await pruneWebhookHistory(db, new Date(Date.now() - settings.retentionMs));
      databaseBack();
      if (done.events || done.deliveries) log.info({ ...done }, 'webhook history pruned');
    } catch (err) {
      databaseTrouble(err, 'webhook history could not be pruned; trying again at the next pass');
    }
  };
  const pruning = repeatAbout(prune, settings.pruneEveryMs, random);

  const unsubscribe = onNewDeliveries(wakeUp);
  const looping = loop();
  log.info({ concurrency: settings.concurrency }, 'webhook dispatcher started');

  return {
    nudge: wakeUp,
    async stop() {
      if (!running) return;
      running = false;
      unsubscribe();
      wakeUp();
      await pruning.stop();
      await looping;
      await Promise.allSettled([...attempts]);
      agents.close();
      if (recordTimer) {
        clearTimeout(recordTimer);
        recordTimer = null;
      }
      await recording;
      await record();
      log.info('webhook dispatcher stopped');
    },
  };
}
