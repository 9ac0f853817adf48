import { DataTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * A job's report names every user it touched (issue 40): `job_items` held the users a job
 * skipped or failed on; it now holds those it changed too (outcome `changed`, code `CHANGED`),
 * with what changed:
 *
 * - `changed_from`, `changed_to`: the fields the job changed, before and after, as JSON
 *   (`{"is_active": true}` → `{"is_active": false}`; `{"roles": [...]}`; `{"deleted": false}`);
 * - `version`: the user's optimistic-lock version right after the job's write, so an undo can
 *   tell a user changed since (`CHANGED_SINCE`) from one the job left as it was.
 *
 * `job_items_code (job_id, code, id)`: the job page's first users per skip code stay one short
 * range now that a million changed lines may sit before them (built online, as InnoDB builds a
 * secondary index: writes go on). Nullable columns added at the end: a metadata-only change on
 * MariaDB, whatever the table holds.
 */
export const jobItemChanges: Migration = {
  name: '0032-job-item-changes',
  async up({ qi }) {
    await qi.addColumn('job_items', 'changed_from', { type: DataTypes.TEXT, allowNull: true });
    await qi.addColumn('job_items', 'changed_to', { type: DataTypes.TEXT, allowNull: true });
    await qi.addColumn('job_items', 'version', { type: DataTypes.INTEGER, allowNull: true });
    await qi.addIndex('job_items', ['job_id', 'code', 'id'], { name: 'job_items_code' });
  },
  async down({ qi }) {
    await qi.removeIndex('job_items', 'job_items_code');
    await qi.removeColumn('job_items', 'version');
    await qi.removeColumn('job_items', 'changed_to');
    await qi.removeColumn('job_items', 'changed_from');
  },
};
