import { type JobShow, PERMISSIONS } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { jobsBed } from '../support/jobs-bed.js';

// Its own bed: the file deactivates every administrator but one, the bed's own among them.
const bed = jobsBed();

const csv = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

describe('the last administrator', () => {
  it('is kept by a real run and foreseen by a dry run, across chunks', async () => {
    // An actor holding every permission without the admin role, so every administrator can go.
    const actor = await given(bed.t.db).user({ permissions: [...PERMISSIONS] });
    const token = await given(bed.t.db).token(actor.id);
    const as = request(bed.t.app, { token });
    await given(bed.t.db).user({ roles: ['admin'] });
    const admins = await bed.t.db.sequelize.query<{ email: string }>(
      `SELECT u.email FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
        WHERE r.name = 'admin' AND u.is_active = 1 AND u.deleted_at IS NULL ORDER BY u.id`,
      { type: QueryTypes.SELECT },
    );
    expect(admins.length).toBeGreaterThanOrEqual(2);
    const file = csv(['email,active', ...admins.map((a) => `${a.email},no`)]);
    bed.runner(1);
    const codesOf = async (query: string) => {
      const res = await bed.t.app.inject({
        method: 'POST',
        url: `/api/users/imports?mode=upsert&${query}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        payload: file,
      });
      expect(res.statusCode, res.body).toBe(202);
      // The actor waits with its own token: the bed's administrator is one of those the file deactivates.
      const job = await bed.waitForJob(res.json().job.id, as);
      const shown = (await as.get(`/api/jobs/${job.id}`)).json() as JobShow;
      return shown.problems.map((p) => p.code);
    };
    expect(await codesOf('dryRun=true')).toEqual(['LAST_ADMIN']);
    expect(await codesOf('dryRun=false')).toEqual(['LAST_ADMIN']);
    const [left] = await bed.t.db.sequelize.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
        WHERE r.name = 'admin' AND u.is_active = 1 AND u.deleted_at IS NULL`,
      { type: QueryTypes.SELECT },
    );
    expect(Number(left?.n)).toBe(1);
    // A deactivated administrator lost its access at once, as with any deactivation.
    expect((await bed.admin.get('/api/users')).statusCode).toBe(401);
  });

  it("is kept by an import's undo and foreseen by its dry run, across chunks", async () => {
    const actor = await given(bed.t.db).user({ permissions: [...PERMISSIONS] });
    const as = request(bed.t.app, { token: await given(bed.t.db).token(actor.id) });
    const sleepers = [
      await given(bed.t.db).user({ roles: ['admin'], active: false }),
      await given(bed.t.db).user({ roles: ['admin'], active: false }),
    ];
    // The import wakes two administrators; every other one is deactivated afterwards, so undoing
    // the import would deactivate the last two: the undo may put back the first, never the last.
    const file = csv(['email,active', ...sleepers.map((u) => `${u.email},yes`)]);
    bed.runner(1);
    const res = await bed.t.app.inject({
      method: 'POST',
      url: '/api/users/imports?mode=upsert&activate=true',
      headers: { authorization: `Bearer ${await given(bed.t.db).token(actor.id)}`, 'content-type': 'text/csv' },
      payload: file,
    });
    expect(res.statusCode, res.body).toBe(202);
    const imported = await bed.waitForJob(res.json().job.id, as);
    expect(imported.import?.outcomes).toMatchObject({ update: 2 });
    await bed.t.db.sequelize.query(
      `UPDATE users SET is_active = 0 WHERE id NOT IN (:ids) AND id IN (
         SELECT ur.user_id FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE r.name = 'admin')`,
      { replacements: { ids: sleepers.map((u) => u.id) } },
    );
    const undo = async (dryRun: boolean) => {
      const asked = await as.post(`/api/jobs/${imported.id}/undo`, { dryRun });
      expect(asked.statusCode, asked.body).toBe(202);
      return bed.waitForJob(asked.json().job.id, as);
    };
    const dry = await undo(true);
    expect(dry).toMatchObject({ progress: { changed: 1, skipped: 1 }, counts: { LAST_ADMIN: 1 } });
    expect(dry.undo?.accounts).toEqual({ removed: 0, restored: 1 });
    const real = await undo(false);
    expect(real).toMatchObject({ progress: dry.progress, counts: dry.counts });
    const active = await bed.t.db.models.User.count({ where: { id: sleepers.map((u) => u.id), is_active: true } });
    expect(active).toBe(1);
  });
});
