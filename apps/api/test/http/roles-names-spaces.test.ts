import type { Job, JobShow } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { jobsBed } from '../support/jobs-bed.js';
import { DOORS, type Door, doneStatus, rolesApi } from '../support/roles-api.js';

/**
 * Role names with spaces and any letters (issue 39): "Help Desk" and "Sales – EMEA" on every
 * door, and one name whatever its case and spacing — refused when taken, decided by the database
 * when two writers race, found by an import's roles cell and default roles.
 */

const bed = jobsBed();
let serial = 0;
/** A word of its own per test, so each test's names are its own. */
const fresh = () => `x${++serial}p${process.pid}`;

const api = (door: Door) => rolesApi(bed.t.app, bed.adminToken, door);

async function rolesKeyed(key: string) {
  return bed.t.db.sequelize.query<{ id: number; name: string; name_key: string }>(
    'SELECT id, name, name_key FROM roles WHERE name_key = :key',
    { replacements: { key }, type: QueryTypes.SELECT },
  );
}

describe.each(DOORS)('role names with spaces through %s', (door) => {
  it('creates "Help Desk" as typed, tidied of surrounding and doubled spaces, and renames it', async () => {
    const w = fresh();
    const created = await api(door).create({ name: `  Help   Desk ${w} `, permissions: ['users.view'] });
    expect(created.status, JSON.stringify(created)).toBe(doneStatus(door, 'create'));
    expect(created.data.item.name).toBe(`Help Desk ${w}`);
    expect(await rolesKeyed(`help desk ${w}`)).toEqual([
      { id: created.data.item.id, name: `Help Desk ${w}`, name_key: `help desk ${w}` },
    ]);

    const renamed = await api(door).update(created.data.item.id, {
      name: `Sales – EMEA ${w}`,
      permissions: ['users.view'],
      version: created.data.item.version,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.data.item.name).toBe(`Sales – EMEA ${w}`);
    expect(await rolesKeyed(`help desk ${w}`)).toEqual([]);
    expect((await rolesKeyed(`sales – emea ${w}`)).map((r) => r.name)).toEqual([`Sales – EMEA ${w}`]);
  });

  it('refuses "help  desk" and "HELP DESK" beside "Help Desk", naming the role that has the name', async () => {
    const w = fresh();
    const first = await api(door).create({ name: `Help Desk ${w}` });
    expect(first.status).toBe(doneStatus(door, 'create'));
    for (const name of [`help  desk ${w}`, `HELP DESK ${w.toUpperCase()}`, `Help\u00a0Desk ${w}`]) {
      const again = await api(door).create({ name });
      expect(again).toMatchObject({
        status: 422,
        code: 'VALIDATION_FAILED',
        errors: { name: [`A role named Help Desk ${w} already exists.`] },
      });
    }
    expect(await rolesKeyed(`help desk ${w}`)).toHaveLength(1);
  });

  it('refuses a rename onto another role’s name in another spelling, and allows a role its own in a new case', async () => {
    const w = fresh();
    const desk = await api(door).create({ name: `Help Desk ${w}` });
    const other = await api(door).create({ name: `Front Desk ${w}` });
    const clash = await api(door).update(other.data.item.id, {
      name: `help  DESK ${w}`,
      permissions: [],
      version: other.data.item.version,
    });
    expect(clash).toMatchObject({ status: 422, errors: { name: [`A role named Help Desk ${w} already exists.`] } });
    const recased = await api(door).update(desk.data.item.id, {
      name: `HELP desk ${w}`,
      permissions: [],
      version: desk.data.item.version,
    });
    expect(recased.status).toBe(200);
    expect((await rolesKeyed(`help desk ${w}`)).map((r) => r.name)).toEqual([`HELP desk ${w}`]);
  });

  it('refuses an invisible character and a list separator in a name', async () => {
    const hidden = await api(door).create({ name: 'Help\u200bDesk' });
    expect(hidden).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect(hidden.errors?.name?.[0]).toMatch(/invisible or control character \(U\+200B\)/);
    const listed = await api(door).create({ name: 'Sales, EMEA' });
    expect(listed.errors?.name?.[0]).toMatch(/cannot hold a comma/);
  });

  it('makes one role of racing creations of one name in different spellings', async () => {
    const w = fresh();
    const spellings = [`Help Desk ${w}`, `help  desk ${w}`, `HELP DESK ${w.toUpperCase()}`, ` Help Desk ${w}`];
    const answers = await Promise.all(spellings.map((name) => api(door).create({ name })));
    const won = answers.filter((a) => a.status === doneStatus(door, 'create'));
    expect(won).toHaveLength(1);
    const winner = won[0]?.data.item.name as string;
    for (const lost of answers.filter((a) => a !== won[0])) {
      expect(lost).toMatchObject({ status: 422, errors: { name: [`A role named ${winner} already exists.`] } });
    }
    expect(await rolesKeyed(`help desk ${w}`)).toHaveLength(1);
  });
});

describe('an import naming roles with spaces', () => {
  async function importAndWait(body: string, query = '') {
    bed.runner(50);
    const res = await bed.t.app.inject({
      method: 'POST',
      url: `/api/users/imports${query ? `?${query}` : ''}`,
      headers: { authorization: `Bearer ${bed.adminToken}`, 'content-type': 'text/csv' },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(202);
    const { job } = res.json() as { job: Job };
    const done = await bed.waitForJob(job.id);
    const shown = (await bed.admin.get(`/api/jobs/${job.id}`)).json() as JobShow;
    return { job: done, problems: shown.problems };
  }

  async function roleNamesOf(email: string) {
    const rows = await bed.t.db.sequelize.query<{ name: string }>(
      `SELECT r.name FROM roles r JOIN user_roles ur ON ur.role_id = r.id JOIN users u ON u.id = ur.user_id
        WHERE u.email = :email ORDER BY r.name`,
      { replacements: { email }, type: QueryTypes.SELECT },
    );
    return rows.map((r) => r.name);
  }

  it('finds "Help Desk" and "Sales – EMEA" by a cell naming them in any case and spacing', async () => {
    const w = fresh();
    const g = given(bed.t.db);
    await g.role(`Help Desk ${w}`, ['users.view']);
    await g.role(`Sales – EMEA ${w}`, ['users.view']);
    const file = [
      'name,email,roles',
      `Ann,ann.${w}@example.com,"help desk ${w}; SALES –  emea ${w}"`,
      `Bob,bob.${w}@example.com,help  desk ${w}`,
      `Cy,cy.${w}@example.com,`,
      `Di,di.${w}@example.com,Help Desk Nowhere ${w}`,
    ].join('\r\n');
    const { job, problems } = await importAndWait(file, `defaultRoles=${encodeURIComponent(`sales – emea ${w}`)}`);
    expect(job.status).toBe('succeeded');
    expect(problems.map((p) => [p.line, p.code, p.message])).toEqual([
      [5, 'UNKNOWN_ROLE', `There is no role named "Help Desk Nowhere ${w}".`],
    ]);
    expect(await roleNamesOf(`ann.${w}@example.com`)).toEqual([`Help Desk ${w}`, `Sales – EMEA ${w}`]);
    expect(await roleNamesOf(`bob.${w}@example.com`)).toEqual([`Help Desk ${w}`]);
    // No roles cell: the default roles, named in another case.
    expect(await roleNamesOf(`cy.${w}@example.com`)).toEqual([`Sales – EMEA ${w}`]);
  });
});
