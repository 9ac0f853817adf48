import { type QueryInterface, QueryTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * The role editor's permissions, `roles.create`, `roles.update` and `roles.delete`, granted to
 * the seeded `admin` role on installations that exist already (a fresh one gets them from the
 * seed, which runs after the migrations).
 */
export const rolePermissions: Migration = {
  name: '0016-role-permissions',
  async up({ qi }) {
    await grant(qi, 'roles.create');
    await grant(qi, 'roles.update');
    await grant(qi, 'roles.delete');
  },
  // Like 0010 and 0012, going back leaves the rows: a grant may have been given to other roles
  // or users by hand since, and the code before this migration ignores names it does not use.
  async down() {},
};

/** Adds a permission where it is missing and grants it to the seeded `admin` role. */
async function grant(qi: QueryInterface, name: string) {
  const seq = qi.sequelize;
  const now = new Date();
  const found = await seq.query<{ id: number }>('SELECT id FROM permissions WHERE name = :name', {
    replacements: { name },
    type: QueryTypes.SELECT,
  });
  if (found.length === 0) {
    await qi.bulkInsert('permissions', [{ name, guard_name: 'web', created_at: now, updated_at: now }]);
  }
  await seq.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT r.id, p.id FROM roles r JOIN permissions p ON p.name = :name
      WHERE r.name = 'admin'
        AND NOT EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = r.id AND rp.permission_id = p.id)`,
    { replacements: { name } },
  );
}
