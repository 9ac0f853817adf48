import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { writeTransaction } from '../db/transaction.js';
import { isDatabaseUnreachable } from '../db/unavailable.js';
import { PRUNE_EVERY_MS, repeatAbout } from '../housekeeping/repeat.js';
import { wakeableSleep } from '../housekeeping/wakeable-sleep.js';
import { pruneImportUploads } from '../imports/prune.js';
import type { JobRow } from './job-rows.js';
import { niceWait, type RequestActivity } from '../request-activity.js';
import {
  type ChunkProgress,
  claimJobs,
  finishJob,
  insertJobItems,
  type JobItem,
  lockJob,
  recordChunk,
  releaseLease,
  renewLease,
} from './job-store.js';
import { pruneFinishedJobs } from './job-prune.js';

/** What a kind of job does with one chunk, inside the chunk's transaction. */
export interface JobKindRunner {
  /**
   * Works on the chunk after `job.cursor_id`: its progress and report lines, `done` when nothing
   * is left, or `fail` with a sentence when the job cannot go on (its actor lost the permission).
   */
  chunk(
    job: JobRow,
    tx: Transaction,
    size: number,
  ): Promise<{ progress: ChunkProgress; items: JobItem[]; done: boolean } | { fail: string }>;
  /** Records the job's end (audit, events) inside the transaction that ends it. */
  finished(job: JobRow, status: 'succeeded' | 'failed' | 'cancelled', tx: Transaction): Promise<void>;
}

export interface JobsSettings {
  concurrency: number;
  chunkSize: number;
  /** A dry run's chunk: it changes nothing and locks no rows, so fewer, larger chunks cost less. */
  dryRunChunkSize: number;
  /** The pause after a chunk, in times how long requests were in flight while it ran (0: none). */
  niceRatio: number;
  leaseMs: number;
  pollMs: number;
  /** Finished jobs and their reports older than this are pruned, about hourly. */
  retentionMs: number;
}

export interface JobRunner {
  /** Looks for queued jobs now instead of at the next poll. */
  nudge(): void;
  /** Stops claiming; jobs in hand stop after their current chunk and are taken up by any runner later. */
  stop(): Promise<void>;
}

export interface JobRunnerDeps {
  db: Database;
  settings: JobsSettings;
  kinds: Readonly<Record<string, JobKindRunner>>;
  log: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
  /** This instance's requests (none on an instance that serves no HTTP: it never pauses). */
  activity?: RequestActivity;
}

const ERROR_BACKOFF_MS = 1_000;
const ERROR_BACKOFF_MAX_MS = 30_000;
const OUTAGE_RETRY_MAX_MS = 2_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How long a job waits after a chunk during which requests were in flight for `servedMs`:
 * `niceRatio` times that (a dry run never waits: someone is waiting for it). Someone browsing
 * throughout a chunk makes the job wait the ratio times the chunk — as gh-ost's `--nice-ratio`
 * and pt-archiver's `--sleep-coef` — while a progress bar's poll now and then costs it next to
 * nothing, and an idle instance none (docs/decisions.md).
 */
export function niceDelay(settings: Pick<JobsSettings, 'niceRatio'>, servedMs: number, dryRun: boolean): number {
  return dryRun ? 0 : niceWait(settings.niceRatio, servedMs);
}

type Step = 'more' | 'done' | 'lost';

/**
 * Starts a job runner: it claims queued jobs (and those whose holder's lease ran out) up to
 * `concurrency`, and moves each chunk by chunk. Each chunk is one transaction that locks the job
 * row, checks the lease is still this runner's and the job is not being cancelled, works on the
 * chunk and records its progress and checkpoint — so a runner that dies loses at most an
 * uncommitted chunk, which the next holder does again from the last checkpoint. A heartbeat
 * renews the lease between chunks. A database outage pauses the job (it is retried with backoff
 * and, if this runner gives up its lease meanwhile, another resumes it); any other error fails it.
 */
export function startJobRunner({ db, settings, kinds, log, activity }: JobRunnerDeps): JobRunner {
  const owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let running = true;
  const inHand = new Map<number, Promise<void>>();
  const dryRuns = new Set<number>();
  const { sleep, wakeUp } = wakeableSleep();

  const step = (id: number): Promise<Step> =>
    writeTransaction(db, async (tx) => {
      const job = await lockJob(db, tx, id);
      if (!job || job.lease_owner !== owner) return 'lost';
      const kind = kinds[job.kind];
      if (!kind) {
        await finishJob(db, tx, id, 'failed', `This version cannot run jobs of kind "${job.kind}".`);
        return 'done';
      }
      if (job.status === 'cancelling') {
        await finishJob(db, tx, id, 'cancelled');
        await kind.finished(job, 'cancelled', tx);
        return 'done';
      }
      if (job.dry_run) dryRuns.add(id);
      const result = await kind.chunk(job, tx, job.dry_run ? settings.dryRunChunkSize : settings.chunkSize);
      if ('fail' in result) {
        await finishJob(db, tx, id, 'failed', result.fail);
        await kind.finished(job, 'failed', tx);
        return 'done';
      }
      await recordChunk(db, tx, job, result.progress, settings.leaseMs);
      if (result.items.length) await insertJobItems(db, tx, id, result.items);
      if (!result.done) return 'more';
      await finishJob(db, tx, id, 'succeeded');
      await kind.finished(job, 'succeeded', tx);
      return 'done';
    });

  const work = async (id: number) => {
    // The heartbeat keeps the lease while a chunk takes long; a chunk also renews it when it commits.
    let lost = false;
    const beat = setInterval(
      () => {
        renewLease(db, id, owner, settings.leaseMs)
          .then((held) => {
            if (!held) lost = true;
          })
          .catch((err) => log.warn({ jobId: id, err: String(err) }, 'job heartbeat failed'));
      },
      Math.max(100, settings.leaseMs / 3),
    );
    let backoff = ERROR_BACKOFF_MS;
    try {
      while (running && !lost) {
        let next: Step;
        try {
          const servedBefore = activity?.servedMs() ?? 0;
          next = await step(id);
          const wait = niceDelay(settings, (activity?.servedMs() ?? 0) - servedBefore, dryRuns.has(id));
          if (next === 'more' && wait > 0) await pause(wait);
          backoff = ERROR_BACKOFF_MS;
        } catch (err) {
          if (isDatabaseUnreachable(err)) {
            log.warn({ jobId: id, error: String(err) }, 'job paused: the database is unreachable; trying again');
            await pause(backoff);
            // A job goes on within OUTAGE_RETRY_MAX_MS of the database's return: one short statement
            // every two seconds costs an absent database nothing.
            backoff = Math.min(OUTAGE_RETRY_MAX_MS, backoff * 2);
            continue;
          }
          log.error({ jobId: id, err }, 'job failed');
          await writeTransaction(db, async (tx) => {
            const job = await lockJob(db, tx, id);
            if (!job || job.lease_owner !== owner) return;
            await finishJob(db, tx, id, 'failed', 'The job stopped on an unexpected error; the log has the details.');
            await kinds[job.kind]?.finished(job, 'failed', tx);
          }).catch((again) => log.error({ jobId: id, err: again }, 'a failed job could not be marked failed'));
          return;
        }
        if (next !== 'more') {
          if (next === 'lost') log.warn({ jobId: id }, 'job lease lost: another runner holds it now');
          return;
        }
      }
    } finally {
      clearInterval(beat);
      dryRuns.delete(id);
      // Stopping with work left: let the lease go, so another runner takes the job up at once.
      if (!running && !lost) {
        await releaseLease(db, id, owner).catch((err) => log.warn({ jobId: id, err: String(err) }, 'job lease kept'));
      }
    }
  };

  const loop = async () => {
    let backoff = ERROR_BACKOFF_MS;
    while (running) {
      const free = settings.concurrency - inHand.size;
      if (free > 0) {
        try {
          const ids = await claimJobs(db, owner, free, settings.leaseMs, new Date(), [...inHand.keys()]);
          backoff = ERROR_BACKOFF_MS;
          for (const id of ids) {
            log.info({ jobId: id }, 'job claimed');
            const done = work(id).finally(() => {
              inHand.delete(id);
              wakeUp();
            });
            inHand.set(id, done);
          }
        } catch (err) {
          if (!isDatabaseUnreachable(err)) log.error({ err }, 'jobs could not be claimed; trying again');
          await sleep(backoff);
          backoff = Math.min(ERROR_BACKOFF_MAX_MS, backoff * 2);
          continue;
        }
      }
      if (running) await sleep(settings.pollMs);
    }
  };

  // Retention: every runner prunes about hourly, at its own jittered times.
  const pruning = repeatAbout(async () => {
    try {
      const pruned = await pruneFinishedJobs(db, new Date(Date.now() - settings.retentionMs));
      if (pruned) log.info({ pruned }, 'finished jobs pruned');
      const uploads = await pruneImportUploads(db);
      if (uploads) log.info({ uploads }, 'staged import files dropped');
    } catch (err) {
      if (!isDatabaseUnreachable(err)) log.error({ err }, 'finished jobs could not be pruned; trying again later');
    }
  }, PRUNE_EVERY_MS);

  const looping = loop();
  log.info({ concurrency: settings.concurrency, chunkSize: settings.chunkSize, owner }, 'job runner started');
  let stopped: Promise<void> | null = null;
  return {
    nudge: wakeUp,
    stop() {
      // Every caller waits for the same end, however many ask.
      stopped ??= (async () => {
        running = false;
        wakeUp();
        await pruning.stop();
        await looping;
        await Promise.allSettled([...inHand.values()]);
        log.info('job runner stopped');
      })();
      return stopped;
    },
  };
}
