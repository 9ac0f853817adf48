import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { cliRunner } from '../support/cli.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

// Custom attributes at the command line (issue 38): the attribute:* commands, and values given to
// user:create and user:update with --attribute key=value, all through the API's handlers.
let target: TestDatabaseTarget;
let db: Database;

const cli = cliRunner(() => target.env);

/** A user's values as the API answers them. */
async function attributesOf(email: string) {
  const user = await db.models.User.findOne({ where: { email } });
  const rows = await db.sequelize.query<{ key: string; text_value: string | null; number_value: number | null }>(
    `SELECT a.\`key\`, v.text_value, v.number_value FROM user_attribute_values v JOIN attributes a ON a.id = v.attribute_id
      WHERE v.user_id = :id ORDER BY a.\`key\``,
    { replacements: { id: user?.id ?? 0 }, type: 'SELECT' as never },
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.text_value ?? Number(r.number_value)]));
}

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  expect((await cli('db:migrate')).code).toBe(0);
  expect((await cli('db:seed')).code).toBe(0);
  db = await openTestDatabase(target, { migrated: false });
});
afterAll(async () => {
  await db?.close();
  await target.drop();
});

describe('custom attributes at the command line', () => {
  it("declares, lists and removes custom attributes through the API's handlers, under the same rules", async () => {
    expect(await cli('attribute:list')).toMatchObject({ code: 0, out: 'No attributes are declared.' });
    const created = await cli(
      'attribute:create',
      '--key',
      'grade',
      '--label',
      'Grade',
      '--type',
      'enum',
      '--value',
      'Junior',
      '--value',
      'Senior',
      '--required',
    );
    expect(created).toMatchObject({ code: 0, out: 'Declared attribute grade (enum): Grade.' });
    const audit = await db.models.AuditLog.findOne({ where: { action: 'attribute.create' }, order: [['id', 'DESC']] });
    expect(audit?.actor_id).toBeNull();
    expect(audit?.context).toMatchObject({ source: 'cli' });
    // The rules between fields and the key rule, each named by its flag.
    expect((await cli('attribute:create', '--key', 'Grade', '--label', 'G', '--type', 'string')).err).toMatch(
      /^Error: --key: A key starts with a lower-case letter/,
    );
    expect(
      (await cli('attribute:create', '--key', 'code', '--label', 'Code', '--type', 'string', '--pattern', '(a)\\1'))
        .err,
    ).toMatch(/^Error: --pattern: This pattern cannot be read/);
    expect((await cli('attribute:create', '--key', 'grade', '--label', 'G', '--type', 'string')).err).toBe(
      'Error: --key: There is already an attribute with the key "grade".',
    );
    expect((await cli('attribute:list')).out).toBe('grade\tenum\tGrade (required)\t0 holder(s)');
    expect((await cli('attribute:delete', '--key', 'grade', '--dry-run')).out).toBe(
      'Removing attribute grade would clear the value(s) of 0 user(s). Nothing was changed.',
    );
    expect((await cli('attribute:delete', '--key', 'grade')).out).toBe(
      'Removed attribute grade and the value(s) of 0 user(s).',
    );
    expect((await cli('attribute:delete', '--key', 'grade')).err).toBe(
      'Error: There is no attribute with the key "grade".',
    );
  });

  it('gives a new user attribute values with --attribute key=value, each typed by its definition', async () => {
    for (const args of [
      ['--key', 'department', '--label', 'Department', '--type', 'enum', '--value', 'Sales', '--value', 'Support'],
      ['--key', 'badge', '--label', 'Badge', '--type', 'number'],
      ['--key', 'remote', '--label', 'Remote', '--type', 'boolean'],
      ['--key', 'manager', '--label', 'Manager', '--type', 'user'],
      ['--key', 'employee_no', '--label', 'Employee number', '--type', 'string', '--unique'],
    ]) {
      expect((await cli('attribute:create', ...args)).code).toBe(0);
    }
    const base = ['user:create', '--name', 'Ann Ops', '--password', 'a-long-password-1'];
    const created = await cli(
      ...base,
      '--email',
      'ann@example.com',
      '--attribute',
      'department=sales',
      '--attribute',
      'badge=42',
      '--attribute',
      'remote=yes',
      '--attribute',
      'manager=admin@example.com',
      '--attribute',
      'employee_no=E-1',
    );
    expect(created.code, created.err).toBe(0);
    const admin = await db.models.User.findOne({ where: { email: 'admin@example.com' } });
    expect(await attributesOf('ann@example.com')).toEqual({
      badge: 42,
      department: 'Sales',
      employee_no: 'E-1',
      manager: admin?.id,
      remote: 1,
    });
    const audit = await db.models.AuditLog.findOne({ where: { action: 'user.create' }, order: [['id', 'DESC']] });
    expect(audit?.context).toMatchObject({ source: 'cli' });
  });

  it('refuses a value the definition refuses, named by the flag and key, and creates nothing', async () => {
    const base = ['user:create', '--name', 'Bo Ops', '--password', 'a-long-password-1', '--email', 'bo@example.com'];
    expect((await cli(...base, '--attribute', 'department=Legal')).err).toBe(
      'Error: --attribute department: Department must be one of: Sales, Support.',
    );
    expect((await cli(...base, '--attribute', 'badge=many')).err).toBe(
      'Error: --attribute badge: Badge must be a number.',
    );
    expect((await cli(...base, '--attribute', 'shoe=9')).err).toBe(
      'Error: --attribute shoe: There is no attribute with the key "shoe".',
    );
    expect((await cli(...base, '--attribute', 'manager=nobody@example.com')).err).toBe(
      'Error: --attribute manager: Manager must name a user who exists and is not deleted.',
    );
    expect((await cli(...base, '--attribute', 'employee_no=e-1')).err).toBe(
      'Error: --attribute employee_no: Another user already has this Employee number: it must be unique.',
    );
    expect((await cli(...base, '--attribute', 'department')).err).toMatch(
      /^Error: --attribute: give a key and a value/,
    );
    expect(await db.models.User.count({ where: { email: 'bo@example.com' } })).toBe(0);
  });

  it('changes and clears values with user:update, leaving the others as they are', async () => {
    const res = await cli(
      'user:update',
      '--email',
      'ann@example.com',
      '--attribute',
      'department=Support',
      '--attribute',
      'badge=',
    );
    expect(res.code, res.err).toBe(0);
    expect(res.out).toMatch(/^Updated user #\d+ ann@example.com: .*department=Support/);
    expect(await attributesOf('ann@example.com')).toMatchObject({ department: 'Support', remote: 1 });
    expect(await attributesOf('ann@example.com')).not.toHaveProperty('badge');
    const audit = await db.models.AuditLog.findOne({ where: { action: 'user.update' }, order: [['id', 'DESC']] });
    expect(audit?.changes).toMatchObject({
      'attributes.department': { before: 'Sales', after: 'Support' },
      'attributes.badge': { before: 42, after: null },
    });
    expect((await cli('user:update', '--email', 'ann@example.com')).err).toBe(
      'Error: Give --name or --attribute: nothing to change.',
    );
    expect((await cli('user:update', '--email', 'nobody@example.com', '--name', 'X')).err).toBe(
      'Error: No user has the e-mail nobody@example.com.',
    );
  });
});
