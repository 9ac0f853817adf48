import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { jobsBed } from '../support/jobs-bed.js';

// Undoing a bulk job: the opposite change over the users it changed, as a job of its own, under
// the same rules; users changed since are left as they are; a dry run first; once only.
const bed = jobsBed();
const { runner, cohort, waitForJob, activeOf } = bed;

async function finished(body: Record<string, unknown>, word: string, filters: Record<string, string> = {}) {
  const res = await bed.admin.post('/api/users/bulk', { ...body, selection: { query: { q: word, filters } } });
  expect(res.statusCode, res.body).toBe(202);
  runner(2);
  return waitForJob(res.json().job.id);
}

const undo = (jobId: number, dryRun = false, caller = bed.admin) => caller.post(`/api/jobs/${jobId}/undo`, { dryRun });

describe('POST /jobs/{id}/undo of a bulk job', () => {
  it('puts every changed user back, skips one changed since, and cannot be undone twice', async () => {
    const { word, ids } = await cohort(4);
    const job = await finished({ operation: 'setActive', active: false }, word);
    expect(job).toMatchObject({ status: 'succeeded', progress: { changed: 4 } });
    expect(job.undo).toMatchObject({ of: null, by: null, until: expect.any(String) });
    // Someone reactivates and renames one user after the job: the undo leaves that one alone.
    const moved = ids[1] as number;
    await bed.t.db.models.User.update({ name: `${word} Renamed` }, { where: { id: moved }, individualHooks: false });
    await bed.t.db.sequelize.query('UPDATE users SET lock_version = lock_version + 1 WHERE id = :id', {
      replacements: { id: moved },
    });

    // The dry run says what the undo would do, and changes nothing.
    const dry = await undo(job.id, true);
    expect(dry.statusCode, dry.body).toBe(202);
    expect(dry.json().job).toMatchObject({ kind: 'undo', dryRun: true, operation: 'setActive' });
    const judged = await waitForJob(dry.json().job.id);
    expect(judged).toMatchObject({
      status: 'succeeded',
      progress: { total: 4, processed: 4, changed: 3, skipped: 1 },
      counts: { CHANGED_SINCE: 1 },
    });
    expect(await activeOf(ids)).toEqual([false, false, false, false]);

    const real = await undo(job.id);
    expect(real.statusCode, real.body).toBe(202);
    const undone = await waitForJob(real.json().job.id);
    expect(undone).toMatchObject({ status: 'succeeded', progress: { changed: 3, skipped: 1 } });
    expect(await activeOf(ids)).toEqual([true, false, true, true]);
    expect((await bed.admin.get(`/api/jobs/${job.id}`)).json().item.undo).toMatchObject({ by: undone.id });

    // The undo's report names each user it put back and the one it left.
    const report = JSON.parse((await bed.admin.get(`/api/jobs/${undone.id}/report?format=json`)).body) as {
      id: number;
      outcome: string;
      code: string;
      message: string;
    }[];
    expect(report.filter((l) => l.outcome === 'changed').map((l) => [l.id, l.message])).toEqual(
      ids.filter((id) => id !== moved).map((id) => [id, 'Activated.']),
    );
    expect(report.filter((l) => l.outcome === 'skipped')).toEqual([
      expect.objectContaining({ id: moved, code: 'CHANGED_SINCE' }),
    ]);

    const again = await undo(job.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'NOT_UNDOABLE' });
    const ofUndo = await undo(undone.id);
    expect(ofUndo.statusCode).toBe(409);
  });

  it('takes a role back that a job gave, and gives back one it took, by the role editor’s rules', async () => {
    const { word, ids } = await cohort(2, { roles: ['viewer'] });
    const manager = await bed.t.db.models.Role.findOne({ where: { name: 'manager' } });
    const given_ = await finished({ operation: 'addRole', role_id: manager?.id }, word);
    const back = await waitForJob((await undo(given_.id)).json().job.id);
    expect(back).toMatchObject({ status: 'succeeded', progress: { changed: 2 } });
    const roles = await bed.t.db.sequelize.query<{ user_id: number; role_id: number }>(
      'SELECT user_id, role_id FROM user_roles WHERE user_id IN (:ids) ORDER BY user_id, role_id',
      { replacements: { ids }, type: QueryTypes.SELECT },
    );
    expect(roles.map((r) => Number(r.role_id)).every((id) => id !== manager?.id)).toBe(true);
  });

  it('brings deleted users back from the trash', async () => {
    const { word, ids } = await cohort(3, { active: false });
    const trashed = await finished({ operation: 'delete' }, word);
    expect(trashed.progress.changed).toBe(3);
    const back = await waitForJob((await undo(trashed.id)).json().job.id);
    expect(back).toMatchObject({ status: 'succeeded', progress: { changed: 3 } });
    const live = await bed.t.db.models.User.count({ where: { id: ids } });
    expect(live).toBe(3);
  });

  it('offers no undo of a job that changed nobody, and refuses one', async () => {
    const { word } = await cohort(2, { active: false });
    const job = await finished({ operation: 'setActive', active: false }, word);
    expect(job).toMatchObject({ status: 'succeeded', dryRun: false, progress: { processed: 2, changed: 0 } });
    expect(job.undo).toBeNull();
    const listed = (await bed.admin.get('/api/jobs?perPage=100'))
      .json()
      .rows.find((r: { id: number }) => r.id === job.id);
    expect(listed.undo).toBeNull();
    const undos = await bed.t.db.models.Job.count({ where: { kind: 'undo' } });
    const refused = await undo(job.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'NOT_UNDOABLE', detail: expect.stringContaining('changed nobody') });
    expect(await bed.t.db.models.Job.count({ where: { kind: 'undo' } })).toBe(undos);
  });

  it('refuses what cannot be undone, and a caller without what the undo takes', async () => {
    const { word } = await cohort(2);
    const dry = await finished({ operation: 'setActive', active: false, dryRun: true }, word);
    expect((await undo(dry.id)).json()).toMatchObject({ code: 'NOT_UNDOABLE' });
    expect(dry.undo).toBeNull();

    const real = await finished({ operation: 'setActive', active: false }, word);
    const g = given(bed.t.db);
    await g.role('job-watcher', ['jobs.view', 'users.view']);
    const watcher = request(bed.t.app, { token: await g.token((await g.user({ roles: ['job-watcher'] })).id) });
    const refused = await undo(real.id, false, watcher);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect((await bed.admin.get(`/api/jobs/${real.id}`)).json().item.undo.by).toBeNull();
  });
});
