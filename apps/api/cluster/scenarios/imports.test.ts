import fs from 'node:fs';
import path from 'node:path';
import type { Job } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiInstance } from '../bed/api-instance.js';
import { type Cluster, login, startCluster } from '../bed/cluster.js';
import { expectImportApplied, writeImportCsv } from '../bed/imports.js';
import { expectConsistent } from '../bed/integrity.js';
import { holderOf, type JobState, jobState, waitForJob } from '../bed/jobs.js';
import { describeLoad, failuresOf, loadOn } from '../bed/load.js';
import { waitForCatchUp } from '../bed/mariadb.js';
import { sleep } from '../bed/ports.js';
import { bedSecrets } from '../bed/secret-scan.js';

/** Both faults land by about 31 000 lines; the rest runs after the outage. `CLUSTER_IMPORT_LINES` overrides. */
const USERS = Number(process.env.CLUSTER_IMPORT_LINES ?? 45_000);
const DOMAIN = 'imp.test';
/** The runner's chunk (JOBS_CHUNK_SIZE's default): one transaction each. */
const CHUNK = 1_000;
/** Committed lines before the runner is killed, and between that takeover and the outage. */
const STRIDE = 15_000;
const OUTAGE_MS = 10_000;
/** About 900 lines/s on a shared two-core machine: a STRIDE takes ~17 s, several times that is a hang. */
const PROGRESS_WAIT_MS = 120_000;

let c: Cluster;
let cookie: string;

/** Sequelize's own note (console.warn) when it drops a connection the primary's crash cut: no SQL, no data. */
const SEQUELIZE_DROPPED_CONNECTION =
  /^(Rolling back|Committing) transaction [\w-]+ failed with error .*We are killing its connection as it is now in an undetermined state\.$/;

beforeAll(async () => {
  // A 3 s lease, so a dead runner's job is taken over within seconds. The outbox is checked row
  // by row instead of delivered (the dispatcher is off).
  c = await startCluster({
    name: 'imports',
    demoUsers: 300,
    env: {
      JOBS_LEASE_SECONDS: '3',
      JOBS_CHUNK_SIZE: String(CHUNK),
      WEBHOOKS_DISPATCHER: 'false',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
  });
  cookie = await login(c.lb.baseUrl);
});
afterAll(() => c?.close());

const post = async (url: string, body: string | Buffer, type: string) => {
  const res = await fetch(`${c.lb.baseUrl}${url}`, {
    method: 'POST',
    headers: { cookie, 'content-type': type, 'sec-fetch-site': 'same-origin' },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe(`a ${USERS.toLocaleString('en')}-line CSV import through a SIGKILL of its runner and a 10 s dead primary`, () => {
  it('succeeds with exactly the file’s users, each created, audited, recorded and announced once', async () => {
    const file = path.join(c.dir, 'people.csv');
    const people = writeImportCsv(file, USERS, DOMAIN);

    const hook = await post(
      '/api/webhooks',
      JSON.stringify({
        url: 'http://127.0.0.1:9/hooks',
        description: 'imports scenario outbox',
        events: ['user.created'],
      }),
      'application/json',
    );
    expect(hook.status).toBe(201);
    bedSecrets.add(hook.body.secret as string);

    // An administrator keeps browsing meanwhile, through the balancer.
    const load = loadOn(c, cookie, {
      kinds: ['list', 'show'],
      workers: 1,
      timeoutMs: 15_000,
      unavailableIsExpected: true,
    });
    const uploadStarted = Date.now();
    const submitted = await post('/api/users/imports?mode=create', fs.readFileSync(file), 'text/csv');
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const uploadMs = Date.now() - uploadStarted;
    const jobId = (submitted.body.job as Job).id;
    expect((submitted.body.job as Job).progress.total).toBe(USERS);

    // The runner holding the import dies (SIGKILL: no drain, no lease released) mid-file.
    const before = await waitForJob(
      c.primary,
      jobId,
      `${STRIDE} lines done`,
      (s) => s.processed >= STRIDE,
      PROGRESS_WAIT_MS,
    );
    const victim = holderOf(c.instances, before) as ApiInstance;
    expect(victim, `a bed instance holds job ${jobId}`).toBeDefined();
    const other = c.instances.find((i) => i !== victim) as ApiInstance;
    const killedAt = Date.now();
    await victim.kill();
    const cut = await jobState(c.primary, jobId);
    expect(cut.status).toBe('running');
    expect(cut.processed).toBeLessThan(USERS);
    const tookOver = await waitForJob(
      c.primary,
      jobId,
      `${other.name} to take the import over`,
      (s) => s.holderPid === other.pid && s.processed > cut.processed,
      30_000,
    );
    const takeoverMs = Date.now() - killedAt;
    await victim.start();
    await c.lb.waitForServer(victim.name, 'UP');

    // The primary dies mid-import for 10 s (a crash: no clean shutdown), then comes back.
    const beforeOutage = await waitForJob(
      c.primary,
      jobId,
      'progress before the outage',
      (s) => s.processed >= tookOver.processed + STRIDE,
      PROGRESS_WAIT_MS,
    );
    expect(beforeOutage.processed).toBeLessThan(USERS);
    const primaryKilledAt = Date.now();
    await c.primary.kill();
    await sleep(Math.max(0, primaryKilledAt + OUTAGE_MS - Date.now()));
    await c.primary.start();
    const primaryBackAt = Date.now();
    const stalled = await jobState(c.primary, jobId);
    const moving = await waitForJob(c.primary, jobId, 'the import to move after the outage', (s) => {
      return s.processed > stalled.processed || s.status === 'succeeded';
    });
    const resumedMs = Date.now() - primaryBackAt;
    for (const i of c.instances) await c.lb.waitForServer(i.name, 'UP');

    const done: JobState = await waitForJob(
      c.primary,
      jobId,
      'the import to succeed',
      (s) => s.status === 'succeeded',
      240_000,
    );
    const report = await load.stop();
    const jobMs = (done.finishedAt?.getTime() ?? 0) - (done.startedAt?.getTime() ?? 0);

    expect(done).toMatchObject({ total: USERS, processed: USERS, changed: USERS, skipped: 0, failed: 0 });
    // Claimed once, then again after the SIGKILL (and maybe once more after the primary came back).
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    // The API says the same, through the balancer, once the replica has caught up.
    await waitForCatchUp(c.primary, c.replica, 60_000);
    const shown = await fetch(`${c.lb.baseUrl}/api/jobs/${jobId}`, { headers: { cookie } });
    expect(shown.status).toBe(200);
    const { item: job } = (await shown.json()) as { item: Job };
    expect(job.status).toBe('succeeded');
    expect(job.progress).toEqual({ total: USERS, processed: USERS, changed: USERS, skipped: 0, failed: 0 });
    expect(job.import?.outcomes).toEqual({ create: USERS, update: 0, unchanged: 0, skip: 0, error: 0 });

    // Browsing saw no failure: only the contract's 503 while the primary was away.
    expect(failuresOf(report)).toEqual([]);
    for (const i of c.instances) {
      expect(i.logs.filter((l) => l.level >= 50)).toEqual([]);
      expect(i.stderr.filter((l) => !SEQUELIZE_DROPPED_CONNECTION.test(l))).toEqual([]);
    }

    const applied = await expectImportApplied(c.primary, jobId, DOMAIN, people);
    await expectConsistent(c.primary, report);

    console.log(describeLoad('imports', report));
    console.log(
      `imports: ${USERS.toLocaleString('en')} users created by import job ${jobId} in ${(jobMs / 1000).toFixed(1)} s ` +
        `(${Math.round(USERS / (jobMs / 1000))}/s; upload answered in ${(uploadMs / 1000).toFixed(1)} s); ` +
        `runner SIGKILLed on ${victim.name} at ${cut.processed} done, taken over in ${takeoverMs} ms; ` +
        `primary down ${OUTAGE_MS / 1000} s at ${beforeOutage.processed} done, import moving ${resumedMs} ms after it ` +
        `restarted (${moving.processed} done); ${done.attempts} claims; ${applied.creationRows} creation audit rows, ` +
        'each user once in users, audit targets, import_changes and the outbox; user_stats exact',
    );
  }, 400_000);
});
