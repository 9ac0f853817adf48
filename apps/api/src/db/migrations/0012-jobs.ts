import { DataTypes, type QueryInterface, QueryTypes } from 'sequelize';
import type { Dialect } from '../dialect.js';
import type { Migration } from './migration.js';

/** This migration's own column types (frozen: see frozen-column-types.ts for why a copy). */
function columnTypes(dialect: Dialect) {
  const mysql = dialect === 'mysql';
  return {
    id: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    fk: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    date: mysql ? DataTypes.DATE(3) : DataTypes.DATE,
    longText: mysql ? DataTypes.TEXT('long') : DataTypes.TEXT,
  };
}

/**
 * Background jobs:
 *
 * - `jobs`: one row per job — what it does (`kind`, `operation`, `params` as JSON text: the
 *   frozen selection), where it stands (`status`, the progress counters, `cursor_id`: the last user
 *   id a committed chunk covered), who holds it (`lease_owner` until `lease_until`, renewed by a
 *   heartbeat) and who asked, through which door (`actor_id`, `via_kind`, `via_name`, `ip`,
 *   `request_id`, written into every chunk's audit row).
 * - `job_items`: the report — each user a job skipped or failed on, with the code and sentence.
 * - the `jobs.view` permission (see every user's jobs), granted to the seeded `admin` role.
 */
export const jobs: Migration = {
  name: '0012-jobs',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    const counter = { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 };
    await qi.createTable(
      'jobs',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        kind: { type: DataTypes.STRING(16), allowNull: false },
        operation: { type: DataTypes.STRING(32), allowNull: true },
        params: { type: t.longText, allowNull: false },
        dry_run: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        status: { type: DataTypes.STRING(16), allowNull: false },
        total: counter,
        processed: counter,
        changed: counter,
        skipped: counter,
        failed: counter,
        counts: { type: DataTypes.TEXT, allowNull: false },
        cursor_id: { type: t.fk, allowNull: true },
        error: { type: DataTypes.STRING(500), allowNull: true },
        actor_id: { type: t.fk, allowNull: true },
        via_kind: { type: DataTypes.STRING(16), allowNull: false },
        via_name: { type: DataTypes.STRING(255), allowNull: true },
        ip: { type: DataTypes.STRING(45), allowNull: true },
        request_id: { type: DataTypes.STRING(64), allowNull: true },
        lease_owner: { type: DataTypes.STRING(64), allowNull: true },
        lease_until: { type: t.date, allowNull: true },
        attempts: counter,
        created_at: { type: t.date, allowNull: false },
        started_at: { type: t.date, allowNull: true },
        finished_at: { type: t.date, allowNull: true },
        updated_at: { type: t.date, allowNull: false },
      },
      table,
    );
    // The claim: queued jobs, and running ones whose lease ran out.
    await qi.addIndex('jobs', ['status', 'lease_until'], { name: 'jobs_claim' });
    // A caller's own jobs, newest first.
    await qi.addIndex('jobs', ['actor_id', 'id'], { name: 'jobs_actor' });
    // Retention: finished jobs past their time.
    await qi.addIndex('jobs', ['finished_at'], { name: 'jobs_finished' });
    await qi.createTable(
      'job_items',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        job_id: { type: t.fk, allowNull: false },
        user_id: { type: t.fk, allowNull: true },
        email: { type: DataTypes.STRING(255), allowNull: false },
        outcome: { type: DataTypes.STRING(16), allowNull: false },
        code: { type: DataTypes.STRING(32), allowNull: false },
        message: { type: DataTypes.STRING(500), allowNull: false },
      },
      table,
    );
    await qi.addIndex('job_items', ['job_id', 'id'], { name: 'job_items_job' });
    await grant(qi, 'jobs.view');
  },
  async down({ qi }) {
    await qi.dropTable('job_items');
    await qi.dropTable('jobs');
  },
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
