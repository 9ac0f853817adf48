import { DataTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * `jobs.state`: what a kind of job carries from one chunk to the next beyond its checkpoint, as
 * JSON text (a dry run's count of the administrators its earlier chunks would have taken away,
 * so the last-administrator rule is judged as the real run would judge it). Written with the
 * checkpoint, in the chunk's transaction, so a job resumed elsewhere finds it.
 */
export const jobState: Migration = {
  name: '0013-job-state',
  async up({ qi }) {
    await qi.addColumn('jobs', 'state', { type: DataTypes.TEXT, allowNull: true });
  },
  async down({ qi }) {
    await qi.removeColumn('jobs', 'state');
  },
};
