import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { jobsBed } from '../support/jobs-bed.js';

// A job's report names every user it changed, with the fields before and after and the version
// its write left (what an undo compares), in words; erased users by id alone; nothing of it for
// a reader who may not see users.
const bed = jobsBed();
const { runner, cohort, waitForJob } = bed;

interface Line {
  id: number | null;
  email: string | null;
  outcome: string;
  code: string;
  message: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

async function runOver(word: string, body: Record<string, unknown>, filters: Record<string, string> = {}) {
  const res = await bed.admin.post('/api/users/bulk', { ...body, selection: { query: { q: word, filters } } });
  expect(res.statusCode).toBe(202);
  runner(2);
  const done = await waitForJob(res.json().job.id);
  expect(done.status).toBe('succeeded');
  const report = await bed.admin.get(`/api/jobs/${done.id}/report?format=json`);
  expect(report.statusCode).toBe(200);
  return { job: done, lines: (JSON.parse(report.body) as Line[]).sort((a, b) => (a.id ?? 0) - (b.id ?? 0)) };
}

describe("a job's report of what it changed", () => {
  it('names each role given, with the roles before and after', async () => {
    const { word, ids } = await cohort(3, { roles: ['viewer'] });
    const { lines } = await runOver(word, { operation: 'addRole', role_id: await roleId('manager') });
    expect(lines.map((l) => [l.id, l.outcome, l.code, l.message, l.before, l.after])).toEqual(
      ids.map((id) => [
        id,
        'changed',
        'CHANGED',
        'Role “manager” given.',
        { roles: ['viewer'] },
        { roles: ['manager', 'viewer'] },
      ]),
    );
  });

  it('keeps the version each write left, moved to the trash and erased for good', async () => {
    const { word, ids } = await cohort(2, { active: false });
    const trashed = await runOver(word, { operation: 'delete' });
    expect(trashed.lines.map((l) => [l.id, l.message, l.before, l.after])).toEqual(
      ids.map((id) => [id, 'Moved to the trash.', { deleted: false }, { deleted: true }]),
    );
    const versions = await bed.t.db.sequelize.query<{ user_id: number; version: number }>(
      'SELECT user_id, version FROM job_changes WHERE job_id = :job ORDER BY user_id',
      { replacements: { job: trashed.job.id }, type: QueryTypes.SELECT },
    );
    const users = await bed.t.db.models.User.findAll({ where: { id: ids }, paranoid: false, order: [['id', 'ASC']] });
    expect(versions.map((v) => Number(v.version))).toEqual(users.map((u) => u.lock_version));

    const erased = await runOver(word, { operation: 'forceDelete' }, { trashed: 'only' });
    expect(erased.lines).toEqual(
      ids.map((id) => ({
        id,
        email: null,
        outcome: 'changed',
        code: 'CHANGED',
        message: 'Erased for good.',
        before: { erased: false },
        after: { erased: true },
      })),
    );
  });

  it('shows a reader without users.view the outcome and the code, not the person or the values', async () => {
    const { word, ids } = await cohort(2);
    const { job } = await runOver(word, { operation: 'setActive', active: false });
    const g = given(bed.t.db);
    const auditor = await g.user({ permissions: ['jobs.view'] });
    const asAuditor = request(bed.t.app, { token: await g.token(auditor.id) });
    const report = await asAuditor.get(`/api/jobs/${job.id}/report?format=json`);
    expect(report.statusCode).toBe(200);
    expect(JSON.parse(report.body)).toEqual(
      ids.map(() => ({
        id: null,
        email: null,
        outcome: 'changed',
        code: 'CHANGED',
        message: 'The job changed this user.',
        before: null,
        after: null,
      })),
    );
  });
});

async function roleId(name: string): Promise<number> {
  const role = await bed.t.db.models.Role.findOne({ where: { name } });
  if (!role) throw new Error(`no role ${name}`);
  return role.id;
}
