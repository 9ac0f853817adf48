import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { cliRunner } from '../support/cli.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * The operator CLI with role names holding spaces (issue 39). The shell's quotes make one
 * argument of `--name "Help Desk"`: each argument below is what the shell hands over.
 */

let target: TestDatabaseTarget;
let db: Database;
const cli = cliRunner(() => target.env);

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  expect((await cli('db:migrate')).code).toBe(0);
  expect((await cli('db:seed')).code).toBe(0);
  db = await openTestDatabase(target, { migrated: false });
}, 120_000);
afterAll(async () => {
  await db?.close();
  await target.drop();
});

async function rolesOfUser(email: string): Promise<string[]> {
  const rows = await db.sequelize.query<{ name: string }>(
    `SELECT r.name FROM roles r JOIN user_roles ur ON ur.role_id = r.id JOIN users u ON u.id = ur.user_id
      WHERE u.email = :email ORDER BY r.name`,
    { replacements: { email }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.name);
}

describe('the CLI with a quoted role name', () => {
  it('says in its help how to quote a name holding spaces', async () => {
    const res = await cli('help');
    expect(res.out).toContain('--role "Help Desk"');
  });

  it('creates "Help Desk" and refuses "help  desk" beside it', async () => {
    const res = await cli('role:create', '--name', 'Help Desk', '--permission', 'users.view');
    expect(res).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Created role #\d+ Help Desk with users\.view\.$/),
    });
    const again = await cli('role:create', '--name', 'help  desk');
    expect(again.code).toBe(1);
    expect(again.err).toContain('A role named Help Desk already exists.');
  });

  it('gives a new user roles named in any case and spacing, one --role each', async () => {
    const res = await cli(
      'user:create',
      '--email',
      'desk@example.com',
      '--name',
      'Desk Person',
      '--password',
      'long-enough-pw',
      '--role',
      'HELP   DESK',
      '--role',
      'viewer',
    );
    expect(res.code, res.err).toBe(0);
    expect(await rolesOfUser('desk@example.com')).toEqual(['Help Desk', 'viewer']);
    const unknown = await cli(
      'user:create',
      '--email',
      'nobody@example.com',
      '--name',
      'Nobody',
      '--password',
      'long-enough-pw',
      '--role',
      'Help Desk Nowhere',
    );
    expect(unknown).toMatchObject({ code: 1, err: expect.stringContaining('Unknown role: Help Desk Nowhere.') });
  });

  it('renames and deletes a role found by another spelling of its name', async () => {
    const renamed = await cli('role:update', '--name', 'help desk', '--rename', 'Sales – EMEA');
    expect(renamed).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Updated role #\d+ Sales – EMEA: users\.view\.$/),
    });
    expect(await rolesOfUser('desk@example.com')).toEqual(['Sales – EMEA', 'viewer']);
    const deleted = await cli('role:delete', '--name', 'SALES – EMEA', '--detach');
    expect(deleted).toMatchObject({ code: 0, out: expect.stringMatching(/^Deleted role #\d+ Sales – EMEA\.$/) });
    expect(await rolesOfUser('desk@example.com')).toEqual(['viewer']);
  });
});
