import { describe, expect, it } from 'vitest';
import { jobKinds } from '../../src/app/job-kinds.js';
import { claimJobs } from '../../src/jobs/job-store.js';
import { createRequestActivity } from '../../src/request-activity.js';
import type { JobKindRunner, JobRunner } from '../../src/jobs/runner.js';
import { jobsBed } from '../support/jobs-bed.js';
import { buildTestApp } from '../support/test-app.js';

// A job outlives the runner holding it, and stops when cancelled: between chunks, never inside one.
const bed = jobsBed();
const { runner, cohort, waitForJob, activeOf, auditOf } = bed;

describe('a job whose runner goes away', () => {
  it('resumes from the last committed chunk when its runner stops, and changes no user twice', async () => {
    const { word, ids } = await cohort(9);
    const { job } = (
      await bed.admin.post('/api/users/bulk', {
        operation: 'setActive',
        active: false,
        selection: { query: { q: word } },
      })
    ).json();
    // The first runner stops after its first chunk (as an instance being shut down does).
    const real = jobKinds(bed.t.db, bed.t.config);
    let first: JobRunner | null = null;
    let calls = 0;
    const stopping = {
      bulk: {
        ...real.bulk,
        chunk: async (...args: Parameters<JobKindRunner['chunk']>) => {
          const out = await (real.bulk as JobKindRunner).chunk(...args);
          calls += 1;
          if (calls === 1) void first?.stop();
          return out;
        },
      } as JobKindRunner,
    };
    first = runner(3, stopping);
    const paused = await waitForJob(job.id, bed.admin, () => calls >= 1);
    await first.stop();
    const mid = await waitForJob(job.id, bed.admin, () => true);
    expect(mid.status).toBe('running');
    expect(mid.progress.processed).toBe(3);
    runner(3);
    const done = await waitForJob(paused.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { processed: 9, changed: 9 } });
    const targets = (await auditOf('users.bulk.setActive'))
      .filter((a) => a.context.job_id === job.id)
      .flatMap((a) => a.targets)
      .sort((a, b) => a - b);
    expect(targets).toEqual(ids);
  });

  it('is taken over by another runner when its holder stops sending heartbeats', async () => {
    const { word, ids } = await cohort(4);
    const { job } = (
      await bed.admin.post('/api/users/bulk', {
        operation: 'setActive',
        active: false,
        selection: { query: { q: word } },
      })
    ).json();
    // A holder that died at once: claimed with a lease that has already run out.
    expect(await claimJobs(bed.t.db, 'dead-instance', 1, 1)).toEqual([job.id]);
    await new Promise((r) => setTimeout(r, 20));
    runner(10);
    const done = await waitForJob(job.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { processed: 4, changed: 4 } });
    expect(await activeOf(ids)).toEqual(ids.map(() => false));
  });
});

describe('POST /jobs/{id}/cancel', () => {
  it('cancels a queued job at once, and answers 409 once it has finished', async () => {
    const { word, ids } = await cohort(2);
    const { job } = (
      await bed.admin.post('/api/users/bulk', {
        operation: 'setActive',
        active: false,
        selection: { query: { q: word } },
      })
    ).json();
    const res = await bed.admin.post(`/api/jobs/${job.id}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(res.json().job).toMatchObject({ status: 'cancelled' });
    const again = await bed.admin.post(`/api/jobs/${job.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'JOB_FINISHED' });
    runner(3);
    await new Promise((r) => setTimeout(r, 100));
    expect(await activeOf(ids)).toEqual([true, true]);
  });

  it('stops a running job before its next chunk; what was committed stays', async () => {
    const { word, ids } = await cohort(6);
    const { job } = (
      await bed.admin.post('/api/users/bulk', {
        operation: 'setActive',
        active: false,
        selection: { query: { q: word } },
      })
    ).json();
    const real = jobKinds(bed.t.db, bed.t.config);
    let calls = 0;
    let cancelled: ReturnType<typeof bed.admin.post> | undefined;
    const slow = {
      bulk: {
        ...real.bulk,
        chunk: async (...args: Parameters<JobKindRunner['chunk']>) => {
          calls += 1;
          // The cancel arrives while the first chunk works: it waits for the chunk's lock on the job.
          if (calls === 1) {
            cancelled = bed.admin.post(`/api/jobs/${job.id}/cancel`);
            await new Promise((r) => setTimeout(r, 100));
          }
          return (real.bulk as JobKindRunner).chunk(...args);
        },
      } as JobKindRunner,
    };
    runner(2, slow);
    const done = await waitForJob(job.id);
    expect((await (cancelled as ReturnType<typeof bed.admin.post>)).json().job.status).toBe('cancelling');
    expect(done).toMatchObject({ status: 'cancelled', progress: { processed: 2, changed: 2 } });
    expect((await activeOf(ids)).filter((a) => !a)).toHaveLength(2);
  });
});

describe('a job beside people being served', () => {
  it('pauses after each chunk for BACKGROUND_NICE_RATIO times the chunk, and still changes every user once', async () => {
    const { word, ids } = await cohort(9);
    const { job } = (
      await bed.admin.post('/api/users/bulk', {
        operation: 'setActive',
        active: false,
        selection: { query: { q: word } },
      })
    ).json();
    const real = jobKinds(bed.t.db, bed.t.config);
    const chunks: Array<{ began: number; ended: number }> = [];
    const timed = {
      bulk: {
        ...real.bulk,
        chunk: async (...args: Parameters<JobKindRunner['chunk']>) => {
          const began = performance.now();
          const out = await (real.bulk as JobKindRunner).chunk(...args);
          chunks.push({ began, ended: performance.now() });
          return out;
        },
      } as JobKindRunner,
    };
    const served = createRequestActivity();
    served.began(); // someone's export, in flight throughout: served for the whole of each chunk
    runner(3, timed, { activity: served, niceRatio: 4 });
    const done = await waitForJob(job.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { processed: 9, changed: 9 } });
    expect(await activeOf(ids)).toEqual(ids.map(() => false));
    // Three chunks of three and the empty one that ends the job: each waited, after the one
    // before it, at least four times that one's own time (its whole transaction is longer still,
    // and someone was served throughout it).
    expect(chunks.length).toBe(4);
    for (let i = 1; i < chunks.length; i++) {
      const before = chunks[i - 1] as { began: number; ended: number };
      const gap = (chunks[i] as { began: number }).began - before.ended;
      expect(gap).toBeGreaterThanOrEqual(4 * (before.ended - before.began) - 1);
    }
  });

  it('counts the requests an instance serves, but not the balancer probes', async () => {
    const activity = createRequestActivity();
    const app = await buildTestApp({ config: bed.t.config, db: bed.t.db, activity });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      expect((await fetch(`${base}/api/ready`)).status).toBe(200);
      expect(activity.servedMs()).toBe(0);
      const res = await fetch(`${base}/api/users`, { headers: { authorization: `Bearer ${bed.adminToken}` } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      // Once its answer is done nothing is in flight: the time served stops growing.
      await expect
        .poll(async () => {
          const a = activity.servedMs();
          await new Promise((r) => setTimeout(r, 20));
          return a > 0 && activity.servedMs() === a;
        })
        .toBe(true);
    } finally {
      await app.close();
    }
  });
});
