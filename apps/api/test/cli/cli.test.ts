import { TOKENS_PER_USER } from '@app/contracts';
import { Op } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { verifyPassword } from '../../src/auth/password.js';
import { createSession } from '../../src/auth/sessions.js';
import type { Database } from '../../src/db/database.js';
import { cliRunner } from '../support/cli.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database;

const cli = cliRunner(() => target.env);

beforeAll(async () => {
  target = await createTestDatabaseTarget();
});
afterAll(async () => {
  await db?.close();
  await target.drop();
});

describe('the operator CLI', () => {
  it('migrates an empty database, then reports it up to date', async () => {
    expect(await cli('db:migrate')).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Applied \d+ migration\(s\): 0001-initial-schema, /),
    });
    expect(await cli('db:migrate')).toMatchObject({ code: 0, out: 'The database is up to date.' });
    db = await openTestDatabase(target, { migrated: false });
  });

  it('seeds roles, the administrator and demo users', async () => {
    const res = await cli('db:seed', '--demo', '25');
    expect(res.code).toBe(0);
    expect(res.out).toContain('Created the administrator admin@example.com.');
    expect(res.out).toContain('Added 25 demo users');
    expect(await db.models.User.count({ paranoid: false })).toBe(26);
    const again = await cli('db:seed');
    expect(again.out).toContain('already exists; left unchanged');
  });

  it('creates a user with roles, direct permissions and a hashed password', async () => {
    const res = await cli(
      'user:create',
      '--email',
      'Ops@Example.com',
      '--name',
      'Ops Person',
      '--password',
      'long-enough-pw',
      '--role',
      'manager',
      '--role',
      'viewer',
      '--permission',
      'users.delete',
      '--inactive',
    );
    expect(res).toMatchObject({
      code: 0,
      // Stored in its canonical form, as every door stores e-mails.
      out: expect.stringMatching(/Created user #\d+ ops@example.com \(inactive\)\./),
    });
    const user = await db.models.User.scope('withPassword').findOne({
      where: { email: 'Ops@Example.com' },
      include: [{ association: 'roles' }, { association: 'directPermissions' }],
    });
    expect(user?.is_active).toBe(false);
    expect(((user?.get('roles') as { name: string }[]) ?? []).map((r) => r.name).sort()).toEqual(['manager', 'viewer']);
    expect(((user?.get('directPermissions') as { name: string }[]) ?? []).map((p) => p.name)).toEqual(['users.delete']);
    expect(await verifyPassword('long-enough-pw', user?.password_hash)).toBe(true);
    const audits = await db.models.AuditLog.findAll({ where: { action: 'user.create' } });
    expect(audits).toHaveLength(1);
    // Written by the API's create handler, as the operator: no actor, the command line as source.
    expect(audits[0]?.actor_id).toBeNull();
    expect(audits[0]?.context).toEqual({ source: 'cli' });
    expect(audits[0]?.changes).toMatchObject({
      roles: { before: null, after: ['manager', 'viewer'] },
      permissions: { before: null, after: ['users.delete'] },
      is_active: { before: null, after: false },
    });
  });

  it('refuses a duplicate e-mail, whatever its case', async () => {
    const res = await cli(
      'user:create',
      '--email',
      'ops@example.COM',
      '--name',
      'Twin',
      '--password',
      'long-enough-pw',
    );
    expect(res).toMatchObject({
      code: 1,
      err: 'Error: --email: This e-mail address is already used by another account.',
    });
  });

  it('refuses an unknown role and lists the known ones', async () => {
    const res = await cli(
      'user:create',
      '--email',
      'x@example.com',
      '--name',
      'X',
      '--password',
      'long-enough-pw',
      '--role',
      'wizard',
    );
    expect(res.code).toBe(1);
    expect(res.err).toBe('Error: Unknown role: wizard. Known: admin, manager, viewer.');
    expect(await db.models.User.count({ where: { email: 'x@example.com' } })).toBe(0);
  });

  it('refuses a weak password and a bad e-mail with the field named', async () => {
    const weak = await cli('user:create', '--email', 'y@example.com', '--name', 'Y', '--password', 'short');
    expect(weak.code).toBe(1);
    expect(weak.err).toMatch(/^Error: --password: .*8/);
    const bad = await cli('user:create', '--email', 'not-an-email', '--name', 'Y', '--password', 'long-enough-pw');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^Error: --email: /);
  });

  it('refuses an unknown permission and a missing option', async () => {
    const perm = await cli(
      'user:create',
      '--email',
      'z@example.com',
      '--name',
      'Z',
      '--password',
      'long-enough-pw',
      '--permission',
      'users.fly',
    );
    expect(perm.code).toBe(1);
    expect(perm.err).toMatch(/--permission/);
    const missing = await cli('user:create', '--email', 'z@example.com', '--password', 'long-enough-pw');
    expect(missing).toMatchObject({ code: 1, err: 'Error: --name: is required' });
  });

  it('sets a password and signs the user out everywhere', async () => {
    const res = await cli('user:set-password', '--email', 'ops@example.com', '--password', 'brand-new-password');
    expect(res.code).toBe(0);
    const user = await db.models.User.scope('withPassword').findOne({ where: { email: 'ops@example.com' } });
    expect(await verifyPassword('brand-new-password', user?.password_hash)).toBe(true);
    // The old password's sessions and API tokens end with it.
    await createApiToken(db, user?.id as number, 'sync', null);
    await createSession(db, user?.id as number, { idleMs: 60_000, absoluteMs: 60_000 }, { ip: null, userAgent: null });
    expect(
      (await cli('user:set-password', '--email', ' OPS@example.com ', '--password', 'another-new-password')).code,
    ).toBe(0);
    expect(await db.models.ApiToken.count({ where: { user_id: user?.id } })).toBe(0);
    expect(await db.models.Session.count({ where: { user_id: user?.id } })).toBe(0);
    const audit = await db.models.AuditLog.findOne({ where: { action: 'user.update' }, order: [['id', 'DESC']] });
    expect(audit?.actor_id).toBeNull();
    expect(audit?.context).toMatchObject({ source: 'cli', passwordChanged: true, sessionsEnded: 1, tokensRevoked: 1 });
    expect(JSON.stringify(audit?.get())).not.toContain('another-new-password');
    expect(
      (await cli('user:set-password', '--email', 'nobody@example.com', '--password', 'brand-new-password')).code,
    ).toBe(1);
  });

  it('creates a role with permissions and refuses a duplicate', async () => {
    const res = await cli(
      'role:create',
      '--name',
      'auditor',
      '--permission',
      'users.view',
      '--permission',
      'users.export',
    );
    expect(res.code).toBe(0);
    const role = await db.models.Role.findOne({
      where: { name: 'auditor' },
      include: [{ association: 'permissions' }],
    });
    expect(((role?.get('permissions') as { name: string }[]) ?? []).map((p) => p.name).sort()).toEqual([
      'users.export',
      'users.view',
    ]);
    expect((await cli('role:create', '--name', 'auditor')).code).toBe(1);
  });

  it("creates a role through the API's handler: names unique whatever their case, audited as the operator", async () => {
    const roles = await db.models.Role.count();
    const dup = await cli('role:create', '--name', 'AUDITOR');
    expect(dup).toMatchObject({ code: 1, err: 'Error: --name: A role named auditor already exists.' });
    expect((await cli('role:create', '--name', 'one, two')).err).toMatch(
      /^Error: --name: A role name cannot hold a comma/,
    );
    expect((await cli('role:create', '--name', 'x', '--permission', 'users.fly')).err).toMatch(/--permission/);
    expect(await db.models.Role.count()).toBe(roles);
    const res = await cli('role:create', '--name', 'exporter', '--permission', 'users.export');
    expect(res).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Created role #\d+ exporter with users.export\.$/),
    });
    const role = await db.models.Role.findOne({ where: { name: 'exporter' } });
    const audit = await db.models.AuditLog.findOne({ where: { action: 'role.create' }, order: [['id', 'DESC']] });
    expect(audit?.actor_id).toBeNull();
    expect(audit?.target_ids).toEqual([role?.id]);
    expect(audit?.context).toMatchObject({ source: 'cli' });
    expect(audit?.changes).toEqual({
      name: { before: null, after: 'exporter' },
      permissions: { before: null, after: ['users.export'] },
    });
  });

  it('changes and deletes roles through the API handlers, under the same rules', async () => {
    const res = await cli('role:update', '--name', 'EXPORTER', '--rename', 'exporters', '--permission', 'users.view');
    expect(res).toMatchObject({ code: 0, out: expect.stringMatching(/^Updated role #\d+ exporters: users.view\.$/) });
    const audit = await db.models.AuditLog.findOne({ where: { action: 'role.update' }, order: [['id', 'DESC']] });
    expect(audit?.context).toMatchObject({ source: 'cli' });
    expect(audit?.changes).toMatchObject({ name: { before: 'exporter', after: 'exporters' } });
    // Left out, the permissions stay; --no-permissions empties them.
    expect((await cli('role:update', '--name', 'exporters', '--rename', 'exporter')).out).toMatch(/: users.view\.$/);
    expect((await cli('role:update', '--name', 'exporter', '--no-permissions')).out).toMatch(/: no permissions\.$/);

    expect(await cli('role:update', '--name', 'admin', '--rename', 'boss')).toMatchObject({
      code: 1,
      err: 'Error: --rename: The admin role cannot be renamed.',
    });
    expect((await cli('role:update', '--name', 'nobody-has-this')).err).toBe(
      'Error: --name: There is no role named nobody-has-this.',
    );
    expect((await cli('role:delete', '--name', 'admin')).err).toBe('Error: The admin role cannot be deleted.');

    // A role with members goes only with --detach, which takes it from them.
    const role = await db.models.Role.findOne({ where: { name: 'exporter' } });
    const member = await db.models.User.findOne({ where: { email: { [Op.ne]: 'admin@example.com' } } });
    await db.models.UserRole.create({ user_id: member?.id as number, role_id: role?.id as number });
    expect((await cli('role:delete', '--name', 'exporter')).err).toMatch(
      /^Error: The role exporter is given to 1 user\./,
    );
    expect(await cli('role:delete', '--name', 'exporter', '--detach')).toMatchObject({
      code: 0,
      out: `Deleted role #${role?.id} exporter.`,
    });
    expect(await db.models.UserRole.count({ where: { role_id: role?.id as number } })).toBe(0);
  });

  it('creates an API token shown once, stored hashed, with an optional expiry', async () => {
    const res = await cli('token:create', '--email', 'admin@example.com', '--name', 'ci', '--expires-days', '30');
    expect(res.code).toBe(0);
    const token = /\n {2}(uat_[\w-]+)\n/.exec(res.out)?.[1] as string;
    expect(token).toMatch(/^uat_[\w-]{43}$/);
    const row = await db.models.ApiToken.findOne({ where: { name: 'ci' } });
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token_hash).not.toBe(token);
    const days = ((row?.expires_at?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect((await cli('token:create', '--email', 'nobody@example.com')).code).toBe(1);
    expect((await cli('token:create', '--email', 'admin@example.com', '--expires-days', 'soon')).err).toMatch(
      /--expires-days/,
    );
  });

  it('mints through the API: the token has no maker, and the (TOKENS_PER_USER+1)-th is refused', async () => {
    const owner = await db.models.User.findOne({ where: { email: 'admin@example.com' } });
    const id = owner?.id as number;
    const made = await db.models.ApiToken.findOne({ where: { name: 'ci' } });
    expect(made?.created_by).toBeNull();
    for (let n = await db.models.ApiToken.count({ where: { user_id: id } }); n < TOKENS_PER_USER; n++) {
      await createApiToken(db, id, `bulk-${n}`, null);
    }
    const over = await cli('token:create', '--email', 'admin@example.com', '--name', 'one-too-many');
    expect(over).toMatchObject({
      code: 1,
      err: expect.stringMatching(new RegExp(`^Error: .+ already has ${TOKENS_PER_USER} API tokens: revoke one`)),
    });
    expect(await db.models.ApiToken.count({ where: { name: 'one-too-many' } })).toBe(0);
    await db.models.ApiToken.destroy({ where: { user_id: id, name: { [Op.like]: 'bulk-%' } } });
  });

  it("narrows a token to some of its owner's permissions, never beyond them", async () => {
    const res = await cli(
      'token:create',
      '--email',
      'admin@example.com',
      '--name',
      'reader',
      '--scope',
      'users.view',
      '--scope',
      'audit.view',
    );
    expect(res.code).toBe(0);
    expect(res.out).toContain('narrowed to users.view, audit.view');
    const row = await db.models.ApiToken.findOne({ where: { name: 'reader' } });
    expect(row?.scopes).toEqual(['users.view', 'audit.view']);
    const audit = await db.models.AuditLog.findOne({ where: { action: 'token.create' }, order: [['id', 'DESC']] });
    expect(audit?.context).toMatchObject({
      source: 'cli',
      tokenId: row?.id,
      name: 'reader',
      scopes: ['users.view', 'audit.view'],
    });

    const viewer = [
      '--email',
      'scoped@example.com',
      '--name',
      'Scoped',
      '--password',
      'long-enough-pw',
      '--role',
      'viewer',
    ];
    expect((await cli('user:create', ...viewer)).code).toBe(0);
    const beyond = await cli('token:create', '--email', 'scoped@example.com', '--scope', 'users.delete');
    expect(beyond).toMatchObject({
      code: 1,
      err: expect.stringMatching(/--scope: Scoped does not hold users.delete/),
    });
    expect((await cli('token:create', '--email', 'scoped@example.com', '--scope', 'users.fly')).err).toMatch(/--scope/);
    expect(await db.models.ApiToken.count({ where: { name: 'cli' } })).toBe(0);
  });

  it("refuses invisible and control characters in a name, with the API's own rule and message", async () => {
    const user = await cli(
      'user:create',
      '--email',
      'rlo@example.com',
      '--name',
      'Mallory\u202etxt.exe',
      '--password',
      'long-enough-pw',
    );
    expect(user.code).toBe(1);
    expect(user.err).toMatch(/^Error: --name: The name contains an invisible or control character \(U\+202E\)/);
    expect(await db.models.User.count({ where: { email: 'rlo@example.com' } })).toBe(0);
    // Counted, not looked up by name: MySQL's collation ignores the zero-width space, so 'ci\u200b' = 'ci'.
    const tokens = await db.models.ApiToken.count();
    const token = await cli('token:create', '--email', 'admin@example.com', '--name', 'ci\u200b');
    expect(token.code).toBe(1);
    expect(token.err).toMatch(/^Error: --name: The name contains an invisible or control character \(U\+200B\)/);
    expect(await db.models.ApiToken.count()).toBe(tokens);
    // A name stored before the rule: the password is not changed under it, and the operator is told why.
    await db.models.User.create({
      name: 'Old\u2066Name',
      email: 'legacy@example.com',
      password_hash: 'x',
      is_active: true,
    });
    const legacy = await cli('user:set-password', '--email', 'legacy@example.com', '--password', 'brand-new-password');
    expect(legacy.code).toBe(1);
    expect(legacy.err).toMatch(
      /legacy@example\.com: the stored name contains .*\(U\+2066\).*Correct the name in the app first/,
    );
  });

  it('explains unknown commands and flags with a non-zero exit', async () => {
    const unknown = await cli('users:explode');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Unknown command "users:explode"');
    const flag = await cli('db:migrate', '--force');
    expect(flag.code).toBe(1);
    expect(flag.err).toMatch(/Unknown option '--force'/);
  });
});
