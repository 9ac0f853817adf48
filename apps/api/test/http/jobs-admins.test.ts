import { PERMISSIONS } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { jobKinds } from '../../src/app/job-kinds.js';
import type { JobKindRunner } from '../../src/jobs/runner.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { activeAdmins, activeChangesByUser, adminRoleId, expectStatsFresh, jobsBed } from '../support/jobs-bed.js';

// The last-administrator rule over jobs: chunk by chunk, in a dry run, and between jobs running at once.
// Deactivating every administrator revokes the bed administrator's token too: these tests act as a keeper.
const bed = jobsBed();
const { runner, waitForJob, activeOf } = bed;

/** Someone holding every permission directly, without the admin role: administrators do not outrank them, and they are not one of them. */
async function keeper() {
  const g = given(bed.t.db);
  return request(bed.t.app, { token: await g.token((await g.user({ permissions: [...PERMISSIONS] })).id) });
}

/** Every administrator active again, for whatever runs after. */
async function reactivateAdmins() {
  await bed.t.db.sequelize.query(
    'UPDATE users SET is_active = 1 WHERE id IN (SELECT user_id FROM user_roles WHERE role_id = ?)',
    { replacements: [await adminRoleId(bed.t.db)] },
  );
}

/**
 * The bulk kind with its chunks started in pairs: each waits a moment for a chunk of the other
 * job, so on MariaDB the two are judged at the same time, each before the other commits. On
 * SQLite chunks take the one write lock in turn, so no partner could come: they run as they are.
 */
function chunksInPairs(): Record<string, JobKindRunner> {
  const real = jobKinds(bed.t.db, bed.t.config).bulk as JobKindRunner;
  if (bed.t.db.dialect !== 'mysql') return { bulk: real };
  let waiting: (() => void) | null = null;
  const meet = () =>
    new Promise<void>((resolve) => {
      if (waiting) {
        waiting();
        waiting = null;
        resolve();
        return;
      }
      waiting = resolve;
      setTimeout(() => {
        if (waiting !== resolve) return;
        waiting = null;
        resolve();
      }, 2_000);
    });
  return {
    bulk: {
      ...real,
      chunk: async (...args: Parameters<JobKindRunner['chunk']>) => {
        await meet();
        return real.chunk(...args);
      },
    },
  };
}

describe('the last administrator', () => {
  it('a dry run over every administrator foresees the one the real run keeps, across chunks', async () => {
    const caller = await keeper();
    for (let i = 0; i < 4; i++) await given(bed.t.db).user({ roles: ['admin'] });
    const everyAdmin = { selection: { query: { filters: { role_id: [await adminRoleId(bed.t.db)] } } } };
    const before = await activeAdmins(bed.t.db);
    expect(before).toBeGreaterThanOrEqual(5);
    try {
      runner(2);
      const dry = (
        await caller.post('/api/users/bulk', { operation: 'setActive', active: false, dryRun: true, ...everyAdmin })
      ).json().job;
      const foreseen = await waitForJob(dry.id, caller);
      expect(foreseen).toMatchObject({
        status: 'succeeded',
        counts: { LAST_ADMIN: 1 },
        progress: { changed: before - 1 },
      });
      expect(await activeAdmins(bed.t.db)).toBe(before);
      const real = (
        await caller.post('/api/users/bulk', { operation: 'setActive', active: false, ...everyAdmin })
      ).json().job;
      const done = await waitForJob(real.id, caller);
      expect(done).toMatchObject({ status: 'succeeded', counts: { LAST_ADMIN: 1 }, progress: { changed: before - 1 } });
      expect(await activeAdmins(bed.t.db)).toBe(1);
    } finally {
      await reactivateAdmins();
    }
  });

  it("an undo's dry run foresees, across chunks, the administrator its real run keeps", async () => {
    const caller = await keeper();
    for (let i = 0; i < 4; i++) await given(bed.t.db).user({ roles: ['admin'] });
    const role = await adminRoleId(bed.t.db);
    const admins = (await bed.t.db.models.UserRole.findAll({ where: { role_id: role } }))
      .map((r) => r.user_id)
      .sort((a, b) => a - b);
    const [kept, ...others] = admins as [number, ...number[]];
    const setActive = (ids: number[], active: boolean) =>
      bed.t.db.sequelize.query('UPDATE users SET is_active = ? WHERE id IN (?)', { replacements: [active, ids] });
    try {
      // A job brings back every administrator but one who was active all along; that one then
      // leaves. Undoing the job would take away every administrator left: the undo keeps one.
      await setActive(others, false);
      runner(2);
      const everyAdmin = { selection: { query: { filters: { role_id: [role] } } } };
      const back = (
        await caller.post('/api/users/bulk', { operation: 'setActive', active: true, ...everyAdmin })
      ).json().job;
      expect(await waitForJob(back.id, caller)).toMatchObject({ progress: { changed: others.length } });
      await setActive([kept], false);
      expect(await activeAdmins(bed.t.db)).toBe(others.length);

      const undo = async (dryRun: boolean) =>
        waitForJob((await caller.post(`/api/jobs/${back.id}/undo`, { dryRun })).json().job.id, caller);
      const foreseen = { status: 'succeeded', counts: { LAST_ADMIN: 1 }, progress: { changed: others.length - 1 } };
      expect(await undo(true)).toMatchObject(foreseen);
      expect(await activeAdmins(bed.t.db)).toBe(others.length);
      expect(await undo(false)).toMatchObject(foreseen);
      expect(await activeAdmins(bed.t.db)).toBe(1);
    } finally {
      await reactivateAdmins();
    }
  });

  it('two jobs over overlapping selections keep one administrator, and each user as their audit says', async () => {
    const caller = await keeper();
    const g = given(bed.t.db);
    // Created in this order, so both jobs (walking in id order) reach their own administrator,
    // `mine` and `yours`, together, once every shared one is gone: each is then the other's last.
    for (let i = 0; i < 2; i++) await g.user({ roles: ['admin'] });
    const mine = (await g.user({ roles: ['admin'] })).id;
    const yours = (await g.user({ roles: ['admin'] })).id;
    const managers: number[] = [];
    for (let i = 0; i < 4; i++) managers.push((await g.user({ roles: ['manager'] })).id);
    const [onlyYours, , , onlyMine] = managers as [number, number, number, number];
    const adminRole = await adminRoleId(bed.t.db);
    const managerRole = (await bed.t.db.models.Role.findOne({ where: { name: 'manager' } }))?.id;
    const selection = (except: number[]) => ({ query: { filters: { role_id: [adminRole, managerRole] } }, except });
    const admins = (await bed.t.db.models.UserRole.findAll({ where: { role_id: adminRole } })).map((r) => r.user_id);
    const everyone = [...admins, ...managers].sort((a, b) => a - b);
    const before = await activeAdmins(bed.t.db);
    expect(await activeOf(everyone)).toEqual(everyone.map(() => true));
    expect(before).toBeGreaterThanOrEqual(5);
    try {
      const submit = async (except: number[]) => {
        const res = await caller.post('/api/users/bulk', {
          operation: 'setActive',
          active: false,
          selection: selection(except),
        });
        expect(res.statusCode).toBe(202);
        return res.json().job.id as number;
      };
      const first = await submit([yours, onlyYours]);
      const second = await submit([mine, onlyMine]);
      // Two instances' runners, one chunk (one user) at a time.
      const kinds = chunksInPairs();
      runner(1, kinds);
      runner(1, kinds);
      const jobs = [await waitForJob(first, caller), await waitForJob(second, caller)];

      // Never zero: exactly one of the two jobs' own administrators stays, the other job's last.
      expect(await activeAdmins(bed.t.db)).toBe(1);
      const kept = (await activeOf([mine, yours])).filter(Boolean);
      expect(kept).toEqual([true]);
      for (const job of jobs) {
        expect(job.status).toBe('succeeded');
        expect(job.progress.processed).toBe(everyone.length - 2);
        expect(job.progress.failed).toBe(0);
      }
      // Every user changed once, by one job or the other, but the one kept; the users both
      // selections hold were found already changed by the job that came second.
      const sum = (key: 'changed' | 'skipped') => jobs.reduce((n, j) => n + j.progress[key], 0);
      expect(sum('changed')).toBe(everyone.length - 1);
      expect(sum('skipped')).toBe(1);
      expect(jobs.map((j) => j.counts.LAST_ADMIN ?? 0).sort()).toEqual([0, 1]);
      const both = everyone.length - 4;
      expect(jobs.reduce((n, j) => n + j.progress.processed - j.progress.changed - j.progress.skipped, 0)).toBe(both);

      // Each user's state is what the jobs' audit rows say: one row per change, the last one's value.
      const changes = await activeChangesByUser(bed.t.db, [first, second]);
      const now = await activeOf(everyone);
      everyone.forEach((id, i) => {
        const userChanges = changes.get(id) ?? [];
        expect(userChanges, `user ${id}`).toHaveLength(now[i] ? 0 : 1);
        expect(userChanges.at(-1) ?? true, `user ${id}`).toBe(now[i]);
      });
      await expectStatsFresh(bed.t.db);
    } finally {
      await reactivateAdmins();
    }
  });
});
