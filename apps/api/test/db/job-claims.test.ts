import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { claimJobs, insertJob, readJob } from '../../src/jobs/job-store.js';
import { type JobKindRunner, startJobRunner } from '../../src/jobs/runner.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * A runner polls for work every `pollMs` on every API process. Most polls find none, and on
 * SQLite a write transaction takes the one writer's turn from the requests: an idle runner
 * must only read.
 */
let target: TestDatabaseTarget;
let db: Database;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
});
afterAll(async () => {
  await db.close();
  await target.drop();
});

/** A stand-in for the bulk kind whose one chunk finishes the job at once: this is about claiming. */
const noop: JobKindRunner = {
  async chunk() {
    return {
      progress: { cursor: null, processed: 0, changed: 0, skipped: 0, failed: 0, counts: {} },
      items: [],
      done: true,
    };
  },
  async finished() {},
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const queued = () =>
  insertJob(db, null, {
    kind: 'bulk',
    operation: null,
    params: {},
    dryRun: false,
    total: 0,
    actorId: null,
    via: null,
    ip: null,
    requestId: null,
  });

describe('an idle job runner', () => {
  it('opens no transaction while nothing is queued, and claims a job as soon as one is', async () => {
    const opened: number[] = [];
    const transaction = db.sequelize.transaction.bind(db.sequelize);
    db.sequelize.transaction = ((...args: Parameters<typeof transaction>) => {
      opened.push(Date.now());
      return transaction(...args);
    }) as typeof transaction;
    const settings = {
      concurrency: 2,
      chunkSize: 10,
      dryRunChunkSize: 10,
      leaseMs: 5_000,
      pollMs: 20,
      retentionMs: 86_400_000,
      niceRatio: 0,
    };
    const runner = startJobRunner({ db, settings, kinds: { bulk: noop }, log: silent });
    try {
      await pause(600);
      // About 30 polls went by.
      expect(opened).toEqual([]);
      const id = await queued();
      await expect
        .poll(async () => (await readJob(db, id))?.status, { timeout: 5_000, interval: 25 })
        .toBe('succeeded');
      expect(opened.length).toBeGreaterThan(0);
    } finally {
      await runner.stop();
      db.sequelize.transaction = transaction;
    }
  });
});

describe('claiming', () => {
  it('takes a job whose lease ran out, except for the runner still working on it', async () => {
    const id = await queued();
    const now = new Date();
    expect(await claimJobs(db, 'runner-a', 5, 1_000, now)).toEqual([id]);
    // The database was away longer than the lease: runner-a's loop is still on the job.
    const later = new Date(now.getTime() + 5_000);
    expect(await claimJobs(db, 'runner-a', 5, 1_000, later, [id])).toEqual([]);
    expect(await claimJobs(db, 'runner-b', 5, 1_000, later)).toEqual([id]);
    expect((await readJob(db, id))?.lease_owner).toBe('runner-b');
  });
});
