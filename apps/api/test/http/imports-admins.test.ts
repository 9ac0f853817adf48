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
});
