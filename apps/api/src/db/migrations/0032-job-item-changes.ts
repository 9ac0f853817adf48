import { DataTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * A job's report names every user it touched (issue 40): `job_items` holds the users a job
 * skipped or failed on; `job_changes` holds each user it changed:
 *
 * - `changed_from`, `changed_to`: the fields the job changed, before and after, as JSON
 *   (`{"is_active": true}` → `{"is_active": false}`; `{"roles": [...]}`; `{"deleted": false}`);
 * - `version`: the user's optimistic-lock version right after the job's write, so an undo can
 *   tell a user changed since (`CHANGED_SINCE`) from one the job left as it was.
 *
 * A table of its own, keyed (job_id, user_id): a chunk appends its changed users in id order to
 * one B-tree (into `job_items` each row also went into two secondary indexes, and a deactivation
 * of 820 000 users ran a third slower); an undo and the report walk it by that key.
 */
export const jobItemChanges: Migration = {
  name: '0032-job-item-changes',
  async up({ qi, dialect }) {
    const fk = dialect === 'mysql' ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER;
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    await qi.createTable(
      'job_changes',
      {
        job_id: { type: fk, allowNull: false, primaryKey: true },
        user_id: { type: fk, allowNull: false, primaryKey: true },
        version: { type: DataTypes.INTEGER, allowNull: true },
        changed_from: { type: DataTypes.TEXT, allowNull: false },
        changed_to: { type: DataTypes.TEXT, allowNull: false },
      },
      table,
    );
  },
  async down({ qi }) {
    await qi.dropTable('job_changes');
  },
};
