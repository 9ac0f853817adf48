import { PERMISSIONS, SEEDED_ROLE_DESCRIPTIONS } from '@app/contracts';
import pino from 'pino';
import { Op } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyPassword } from '../../src/auth/password.js';
import { prepareDatabase } from '../../src/bootstrap.js';
import type { Database } from '../../src/db/database.js';
import { seedAdministrator } from '../../src/seed/base.seeder.js';
import { seedDemoUsers } from '../../src/seed/demo.seeder.js';
import { testConfig } from '../support/test-app.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
});
afterAll(async () => {
  await db.close();
  await target.drop();
});

async function rolesOf(email: string): Promise<string[]> {
  const user = await db.models.User.findOne({ where: { email }, include: [{ association: 'roles' }], paranoid: false });
  return ((user?.get('roles') as { name: string }[] | undefined) ?? []).map((r) => r.name).sort();
}

describe('seeding', () => {
  it('creates every permission, the three roles and an administrator holding the admin role', async () => {
    const result = await seedAdministrator(db, {
      adminEmail: 'boss@example.com',
      adminPassword: 'boss-password',
      adminRoleName: 'admin',
    });
    expect(result).toEqual({ adminCreated: true });
    expect(await db.models.Permission.count()).toBe(PERMISSIONS.length);
    const roles = await db.models.Role.findAll({ include: [{ association: 'permissions' }], order: [['name', 'ASC']] });
    const summary = Object.fromEntries(
      roles.map((r) => [r.name, ((r.get('permissions') as { name: string }[]) ?? []).map((p) => p.name).sort()]),
    );
    expect(summary.admin).toEqual([...PERMISSIONS].sort());
    expect(summary.manager).toEqual(['roles.view', 'users.export', 'users.setActive', 'users.update', 'users.view']);
    expect(summary.viewer).toEqual(['roles.view', 'users.view']);
    // Each says what it is for.
    expect(Object.fromEntries(roles.map((r) => [r.name, r.description]))).toEqual(SEEDED_ROLE_DESCRIPTIONS);
    expect(await rolesOf('boss@example.com')).toEqual(['admin']);
    const admin = await db.models.User.scope('withPassword').findOne({ where: { email: 'boss@example.com' } });
    expect(await verifyPassword('boss-password', admin?.password_hash)).toBe(true);
  });

  it('is idempotent: a second run changes nothing', async () => {
    const result = await seedAdministrator(db, {
      adminEmail: 'boss@example.com',
      adminPassword: 'other',
      adminRoleName: 'admin',
    });
    expect(result).toEqual({ adminCreated: false });
    expect(await db.models.Role.count()).toBe(3);
    expect(await db.models.RolePermission.count()).toBe(PERMISSIONS.length + 5 + 2);
  });

  it('generates a password when none is given and returns it once', async () => {
    const result = await seedAdministrator(db, { adminEmail: 'second@example.com', adminRoleName: 'admin' });
    expect(result.generatedPassword).toMatch(/^[\w-]{16}$/);
    const user = await db.models.User.scope('withPassword').findOne({ where: { email: 'second@example.com' } });
    expect(await verifyPassword(result.generatedPassword as string, user?.password_hash)).toBe(true);
  });

  it('adds deterministic demo users with roles, states and trash, which cannot log in', async () => {
    await seedDemoUsers(db, 250);
    const { User } = db.models;
    expect(await User.count({ paranoid: false })).toBe(252);
    expect(await User.count({ where: { is_active: false } })).toBeGreaterThan(10);
    expect(await User.count({ paranoid: false })).toBeGreaterThan(await User.count());
    const demo = await User.scope('withPassword').findOne({
      where: { email: { [Op.like]: '%.%.3@example.com' } },
      paranoid: false,
    });
    expect(demo?.password_hash).toBe('!');
    expect(await verifyPassword('password', demo?.password_hash)).toBe(false);
    expect(await db.models.UserRole.count()).toBeGreaterThan(150);
  });
});

describe('first start of the embedded database', () => {
  it('migrates and seeds once, printing a generated administrator password once', async () => {
    if (target.engine !== 'sqlite') return;
    const own = await createTestDatabaseTarget();
    const ownDb = await openTestDatabase(own, { migrated: false });
    const config = testConfig(own, { DEMO_USERS: '30' });
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await prepareDatabase(ownDb, config, pino({ level: 'silent' }));
    await prepareDatabase(ownDb, config, pino({ level: 'silent' }));
    const printed = write.mock.calls.map((c) => String(c[0])).join('');
    write.mockRestore();
    expect(printed.match(/Password:/g)).toHaveLength(1);
    expect(await ownDb.models.User.count({ paranoid: false })).toBe(31);
    await ownDb.close();
    await own.drop();
  });
});
