import { PERMISSIONS } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { adminRoleId, jobsBed } from '../support/jobs-bed.js';
import { startTestApp } from '../support/test-app.js';
import { clearOutbox, outboxEvents, subscribe } from '../support/webhooks.js';

// Bulk addRole / removeRole: over ids (in the request) and over a selection (a job), under the
// edit form's rules — anti-escalation for the role, the ceiling and the last administrator per user.
const bed = jobsBed();
const { runner, cohort, waitForJob, auditOf } = bed;

async function roleId(db: Database, name: string): Promise<number> {
  const role = await db.models.Role.findOne({ where: { name } });
  if (!role) throw new Error(`no role ${name}`);
  return role.id;
}

/** Each user's role names, in the order of `ids`. */
async function rolesOf(db: Database, ids: number[]): Promise<string[][]> {
  const rows = await db.sequelize.query<{ user_id: number | string; name: string }>(
    `SELECT ur.user_id, r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id
      WHERE ur.user_id IN (:ids) ORDER BY r.name`,
    { replacements: { ids }, type: QueryTypes.SELECT },
  );
  return ids.map((id) => rows.filter((r) => Number(r.user_id) === id).map((r) => r.name));
}

const codes = (report: { skipped: Array<{ id: number; code: string }> }) => report.skipped.map((s) => [s.id, s.code]);

describe('POST /users/bulk addRole / removeRole with ids', () => {
  it('gives the role to those without it and skips holders and deleted users with their codes', async () => {
    const viewer = await roleId(bed.t.db, 'viewer');
    const { ids } = await cohort(2);
    const [a, b] = ids as [number, number];
    const [holder] = (await cohort(1, { roles: ['viewer', 'manager'] })).ids as [number];
    const [gone] = (await cohort(1)).ids as [number];
    await bed.t.db.models.User.destroy({ where: { id: gone } });
    const before = await bed.admin.get(`/api/users/${a}/edit`);
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'addRole',
      role_id: viewer,
      ids: [a, holder, b, gone],
    });
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ operation: 'addRole', dryRun: false, requested: 4, affected: [a, b] });
    expect(codes(report)).toEqual([
      [gone, 'NOT_FOUND'],
      [holder, 'ROLE_ALREADY_HELD'],
    ]);
    expect(report.skipped[1].message).toContain('already has the role viewer');
    expect(await rolesOf(bed.t.db, [a, b, holder])).toEqual([['viewer'], ['viewer'], ['manager', 'viewer']]);
    // An edit form opened before the change is now stale, as after a save of the form.
    const after = await bed.admin.get(`/api/users/${a}/edit`);
    expect(after.json().item.version).not.toBe(before.json().item.version);
  });

  it('records each changed user as the edit form does: user.update with the roles before and after', async () => {
    const viewer = await roleId(bed.t.db, 'viewer');
    const [plain] = (await cohort(1)).ids as [number];
    const [manager] = (await cohort(1, { roles: ['manager'] })).ids as [number];
    await bed.admin.post('/api/users/bulk', { operation: 'addRole', role_id: viewer, ids: [plain, manager] });
    const rows = (await auditOf('user.update')).filter((r) => r.targets.includes(plain) || r.targets.includes(manager));
    expect(rows.map((r) => ({ targets: r.targets, changes: r.changes }))).toEqual([
      { targets: [plain], changes: { roles: { before: [], after: ['viewer'] } } },
      { targets: [manager], changes: { roles: { before: ['manager'], after: ['manager', 'viewer'] } } },
    ]);
    expect(rows[0]?.context).toMatchObject({ bulk: 'addRole', role: 'viewer', requested: 2 });
  });

  it('sends user.updated for each changed user and one bulk.completed, as the other bulk operations do', async () => {
    await clearOutbox(bed.t.db);
    await subscribe(bed.t.db, ['user.updated', 'bulk.completed']);
    const viewer = await roleId(bed.t.db, 'viewer');
    const [plain] = (await cohort(1)).ids as [number];
    const [manager] = (await cohort(1, { roles: ['manager'] })).ids as [number];
    const [holder] = (await cohort(1, { roles: ['viewer'] })).ids as [number];
    await bed.admin.post('/api/users/bulk', { operation: 'addRole', role_id: viewer, ids: [plain, manager, holder] });
    const events = await outboxEvents(bed.t.db);
    const updated = events.filter((e) => e.type === 'user.updated');
    expect(updated.map((e) => (e.payload.data.user as { id: number }).id).sort()).toEqual([plain, manager].sort());
    const completed = events.filter((e) => e.type === 'bulk.completed');
    expect(completed.map((e) => e.payload.data)).toEqual([
      expect.objectContaining({
        operation: 'addRole',
        requested: 3,
        affected: 2,
        affected_ids: [plain, manager],
        skipped: [{ id: holder, code: 'ROLE_ALREADY_HELD' }],
      }),
    ]);
  });

  it('takes the role away from holders and skips those without it', async () => {
    const manager = await roleId(bed.t.db, 'manager');
    const [holder, both] = [
      ...(await cohort(1, { roles: ['manager'] })).ids,
      ...(await cohort(1, { roles: ['manager', 'viewer'] })).ids,
    ] as [number, number];
    const [without] = (await cohort(1, { roles: ['viewer'] })).ids as [number];
    const report = (
      await bed.admin.post('/api/users/bulk', {
        operation: 'removeRole',
        role_id: manager,
        ids: [holder, without, both],
      })
    ).json();
    expect(report.affected).toEqual([holder, both]);
    expect(codes(report)).toEqual([[without, 'ROLE_NOT_HELD']]);
    expect(await rolesOf(bed.t.db, [holder, without, both])).toEqual([[], ['viewer'], ['viewer']]);
  });

  it('answers a dry run with the same report and changes nothing', async () => {
    const viewer = await roleId(bed.t.db, 'viewer');
    const [a] = (await cohort(1)).ids as [number];
    const [holder] = (await cohort(1, { roles: ['viewer'] })).ids as [number];
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'addRole',
      role_id: viewer,
      ids: [a, holder],
      dryRun: true,
    });
    expect(res.json()).toMatchObject({
      dryRun: true,
      affected: [a],
      skipped: [{ id: holder, code: 'ROLE_ALREADY_HELD' }],
    });
    expect(await rolesOf(bed.t.db, [a, holder])).toEqual([[], ['viewer']]);
    expect((await auditOf('user.update')).some((r) => r.targets.includes(a))).toBe(false);
  });

  it('refuses a role carrying permissions the caller lacks (403), and an unknown role (422), changing nothing', async () => {
    const g = given(bed.t.db);
    const manager = request(bed.t.app, { token: await g.token((await g.user({ roles: ['manager'] })).id) });
    const [target] = (await cohort(1)).ids as [number];
    const admin = await adminRoleId(bed.t.db);
    const forbidden = await manager.post('/api/users/bulk', { operation: 'addRole', role_id: admin, ids: [target] });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({
      code: 'FORBIDDEN',
      errors: { role_id: [expect.stringContaining('admin')] },
    });
    const selection = { query: { filters: { role_id: [admin] } } };
    const asJob = await manager.post('/api/users/bulk', { operation: 'removeRole', role_id: admin, selection });
    expect(asJob.statusCode).toBe(403);
    const unknown = await bed.admin.post('/api/users/bulk', { operation: 'addRole', role_id: 987_654, ids: [target] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ role_id: ['There is no role with id 987654.'] });
    const missing = await bed.admin.post('/api/users/bulk', { operation: 'removeRole', ids: [target] });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['role_id']);
    expect(await rolesOf(bed.t.db, [target])).toEqual([[]]);
  });

  it('skips users who outrank the caller (the ceiling) and changes the rest, the caller itself included', async () => {
    const g = given(bed.t.db);
    const me = (await g.user({ roles: ['manager'] })).id;
    const manager = request(bed.t.app, { token: await g.token(me) });
    const viewer = await roleId(bed.t.db, 'viewer');
    const [boss] = (await cohort(1, { roles: ['admin'] })).ids as [number];
    const [peer] = (await cohort(1)).ids as [number];
    const report = (
      await manager.post('/api/users/bulk', { operation: 'addRole', role_id: viewer, ids: [boss, peer, me] })
    ).json();
    expect(report.affected).toEqual([peer, me]);
    expect(codes(report)).toEqual([[boss, 'OUTRANKED']]);
    expect(await rolesOf(bed.t.db, [boss, peer, me])).toEqual([['admin'], ['viewer'], ['manager', 'viewer']]);
  });

  it('never takes the admin role from the last active administrator', async () => {
    const own = await startTestApp();
    try {
      const g = given(own.db);
      const admins: number[] = [];
      for (let i = 0; i < 3; i++) admins.push((await g.user({ roles: ['admin'] })).id);
      const actor = request(own.app, { token: await g.token((await g.user({ permissions: [...PERMISSIONS] })).id) });
      const admin = await adminRoleId(own.db);
      const report = (
        await actor.post('/api/users/bulk', { operation: 'removeRole', role_id: admin, ids: admins })
      ).json();
      expect(report.affected).toEqual(admins.slice(0, 2));
      expect(report.skipped).toEqual([
        { id: admins[2], code: 'LAST_ADMIN', message: expect.stringContaining('last active administrator') },
      ]);
      expect(await rolesOf(own.db, admins)).toEqual([[], [], ['admin']]);
    } finally {
      await own.close();
    }
  });
});

describe('POST /users/bulk addRole / removeRole with a selection', () => {
  it('gives the role to every match in chunks, skipping holders, with an audit row and a user.updated each', async () => {
    await clearOutbox(bed.t.db);
    await subscribe(bed.t.db, ['user.updated', 'bulk.completed']);
    const viewer = await roleId(bed.t.db, 'viewer');
    const { word, ids } = await cohort(5);
    const [left, ...rest] = ids as [number, ...number[]];
    const [holder] = (await cohort(1, { roles: ['viewer'] })).ids as [number];
    await bed.t.db.models.User.update({ name: `${word} Holder` }, { where: { id: holder } });
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'addRole',
      role_id: viewer,
      selection: { query: { q: word }, except: [left] },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().job).toMatchObject({
      operation: 'addRole',
      role: { id: viewer, name: 'viewer' },
      status: 'queued',
      progress: { total: 5 },
    });
    runner(2);
    const done = await waitForJob(res.json().job.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      progress: { processed: 5, changed: 4, skipped: 1 },
      counts: { ROLE_ALREADY_HELD: 1 },
    });
    expect(await rolesOf(bed.t.db, [left, ...rest])).toEqual([[], ...rest.map(() => ['viewer'])]);
    const rows = (await auditOf('user.update')).filter((r) => r.context.job_id === done.id);
    expect(rows.flatMap((r) => r.targets).sort((a, b) => a - b)).toEqual(rest);
    expect(rows.every((r) => r.context.bulk === 'addRole')).toBe(true);
    const events = (await outboxEvents(bed.t.db)).filter((e) => e.type === 'user.updated');
    const changed = events.map((e) => (e.payload.data.user as { id: number }).id).sort((a, b) => a - b);
    expect(changed).toEqual(rest);
    expect(events[0]?.payload.data.changes).toEqual({ roles: { from: [], to: ['viewer'] } });
    const summary = (await outboxEvents(bed.t.db)).find(
      (e) => e.type === 'bulk.completed' && e.payload.data.job_id === done.id,
    );
    expect(summary?.payload.data).toMatchObject({
      operation: 'addRole',
      affected: 4,
      skipped_counts: { ROLE_ALREADY_HELD: 1 },
    });
    await clearOutbox(bed.t.db);
  });

  it('a dry run counts what would change and what would be skipped, and changes nothing', async () => {
    const manager = await roleId(bed.t.db, 'manager');
    const { word, ids } = await cohort(3, { roles: ['manager'] });
    const [without] = (await cohort(1)).ids as [number];
    await bed.t.db.models.User.update({ name: `${word} Without` }, { where: { id: without } });
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'removeRole',
      role_id: manager,
      dryRun: true,
      selection: { query: { q: word } },
    });
    runner(2);
    const done = await waitForJob(res.json().job.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      progress: { processed: 4, changed: 3, skipped: 1 },
      counts: { ROLE_NOT_HELD: 1 },
    });
    expect(await rolesOf(bed.t.db, ids)).toEqual(ids.map(() => ['manager']));
    expect((await auditOf('user.update')).filter((r) => r.context.job_id === done.id)).toEqual([]);
  });

  it('fails the job when the role is deleted before it runs', async () => {
    const { word } = await cohort(2);
    const doomed = await given(bed.t.db).role(`Doomed ${word}`, ['users.view']);
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'addRole',
      role_id: doomed,
      selection: { query: { q: word } },
    });
    expect(res.statusCode).toBe(202);
    await bed.t.db.models.Role.destroy({ where: { id: doomed } });
    runner(2);
    const done = await waitForJob(res.json().job.id);
    expect(done.status).toBe('failed');
  });
});
