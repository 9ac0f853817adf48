import type { Migration } from './migration.js';

/**
 * Status + creation-date filters (`filters[is_active]` with `filters[created_between]`): without
 * this index MariaDB walks (deleted_at, created_at) and reads every candidate row to test
 * is_active — measured at 1M users, the COUNT took 3.3 s; with it, an index-only range scan
 * takes 0.5 s.
 */
export const usersActiveCreatedIndex: Migration = {
  name: '0004-users-active-created-index',
  async up({ qi }) {
    await qi.addIndex('users', ['deleted_at', 'is_active', 'created_at', 'id'], {
      name: 'users_deleted_active_created',
    });
  },
  async down({ qi }) {
    await qi.removeIndex('users', 'users_deleted_active_created');
  },
};
