import { randomBytes } from 'node:crypto';
import { PERMISSIONS, SEEDED_ROLE_DESCRIPTIONS, SEEDED_ROLES, type SeededRoleName } from '@app/contracts';
import type { Transaction } from 'sequelize';
import { hashPassword } from '../auth/password.js';
import type { Database } from '../db/database.js';

export interface BaseSeedOptions {
  adminEmail: string;
  adminPassword?: string | undefined;
  adminRoleName: string;
}

export interface BaseSeedResult {
  adminCreated: boolean;
  /** Set only when the password was generated: the caller prints it once. */
  generatedPassword?: string;
}

/** Permissions and the seeded roles. Idempotent: re-running adds what is missing, changes nothing else. */
export async function seedPermissionsAndRoles(db: Database, tx?: Transaction): Promise<void> {
  const { Permission, Role, RolePermission } = db.models;
  const permissionIds = new Map<string, number>();
  for (const name of PERMISSIONS) {
    const [perm] = await Permission.findOrCreate({ where: { name, guard_name: 'web' }, transaction: tx });
    permissionIds.set(name, perm.id);
  }
  for (const [roleName, perms] of Object.entries(SEEDED_ROLES)) {
    const [role, created] = await Role.findOrCreate({
      where: { name: roleName, guard_name: 'web' },
      defaults: { name: roleName, description: SEEDED_ROLE_DESCRIPTIONS[roleName as SeededRoleName] },
      transaction: tx,
    });
    if (!created) continue;
    await RolePermission.bulkCreate(
      perms.map((p) => ({ role_id: role.id, permission_id: permissionIds.get(p) as number })),
      { transaction: tx },
    );
  }
}

/** The first administrator. Created only when no user has that e-mail yet. */
export async function seedAdministrator(db: Database, opts: BaseSeedOptions): Promise<BaseSeedResult> {
  const { User, Role, UserRole } = db.models;
  return db.sequelize.transaction(async (tx) => {
    await seedPermissionsAndRoles(db, tx);
    const existing = await User.findOne({ where: { email: opts.adminEmail }, paranoid: false, transaction: tx });
    if (existing) return { adminCreated: false };
    const generatedPassword = opts.adminPassword ? undefined : randomBytes(12).toString('base64url');
    const password = opts.adminPassword ?? (generatedPassword as string);
    const admin = await User.create(
      { name: 'Administrator', email: opts.adminEmail, password_hash: await hashPassword(password), is_active: true },
      { transaction: tx },
    );
    const role = await Role.findOne({ where: { name: opts.adminRoleName }, transaction: tx });
    if (role) await UserRole.create({ user_id: admin.id, role_id: role.id }, { transaction: tx });
    return generatedPassword ? { adminCreated: true, generatedPassword } : { adminCreated: true };
  });
}
