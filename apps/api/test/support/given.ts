import { Op } from 'sequelize';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { hashPassword } from '../../src/auth/password.js';
import type { Database } from '../../src/db/database.js';

export const PASSWORD = 'correct-horse-42';
let passwordHash: Promise<string> | undefined;
let counter = 0;

export interface GivenUser {
  id: number;
  email: string;
  password: string;
}

export interface UserSpec {
  roles?: string[];
  permissions?: string[];
  active?: boolean;
  deleted?: boolean;
  email?: string;
  name?: string;
}

/** Factories that arrange the database the way a test needs it. */
export function given(db: Database) {
  return {
    async user(spec: UserSpec = {}): Promise<GivenUser> {
      counter += 1;
      passwordHash ??= hashPassword(PASSWORD);
      // A dot between the counter and the process id: `user2-23456` has a recovery code's form
      // (support/secrets.ts) whenever the id's digits are all 2–7, wherever the local part shows.
      const email = spec.email ?? `user${counter}.${process.pid}@example.com`;
      const user = await db.models.User.create({
        name: spec.name ?? `Test User ${counter}`,
        email,
        password_hash: await passwordHash,
        is_active: spec.active ?? true,
      });
      if (spec.roles?.length) {
        const roles = await db.models.Role.findAll({ where: { name: { [Op.in]: spec.roles } } });
        await db.models.UserRole.bulkCreate(roles.map((r) => ({ user_id: user.id, role_id: r.id })));
      }
      if (spec.permissions?.length) {
        const perms = await db.models.Permission.findAll({ where: { name: { [Op.in]: spec.permissions } } });
        await db.models.UserPermission.bulkCreate(perms.map((p) => ({ user_id: user.id, permission_id: p.id })));
      }
      if (spec.deleted) await user.destroy();
      return { id: user.id, email, password: PASSWORD };
    },

    /** A role granting exactly `permissions` (e.g. a custom role beside the seeded ones). */
    async role(name: string, permissions: string[]): Promise<number> {
      const role = await db.models.Role.create({ name, guard_name: 'web' });
      const perms = await db.models.Permission.findAll({ where: { name: { [Op.in]: permissions } } });
      await db.models.RolePermission.bulkCreate(perms.map((p) => ({ role_id: role.id, permission_id: p.id })));
      return role.id;
    },

    async token(userId: number, expiresAt: Date | null = null): Promise<string> {
      return (await createApiToken(db, userId, 'test', expiresAt)).token;
    },
  };
}
