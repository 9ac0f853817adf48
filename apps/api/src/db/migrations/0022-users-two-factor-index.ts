import type { Migration } from './migration.js';

/**
 * The users without a confirmed second factor, in id order, from an index: a role's impact
 * preview (POST /roles/{id}/preview with `require_two_factor`) counts the members a requirement
 * would hold by walking the smaller of the role's members and these users (membersHeldOnlyBy in
 * roles.preview-reads.ts). Without it the only way to them is (deleted_at, is_active, id),
 * reading every active user's row — a million at the sizes the preview is built for.
 */
export const usersTwoFactorIndex: Migration = {
  name: '0022-users-two-factor-index',
  async up({ qi }) {
    await qi.addIndex('users', ['deleted_at', 'is_active', 'two_factor_enrolled_at', 'id'], {
      name: 'users_deleted_active_two_factor',
    });
  },
  async down({ qi }) {
    await qi.removeIndex('users', 'users_deleted_active_two_factor');
  },
};
