import { DataTypes } from 'sequelize';
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
    ciText: (length: number) => (mysql ? DataTypes.STRING(length) : `VARCHAR(${length}) COLLATE NOCASE`),
  };
}

/**
 * User imports:
 *
 * - `users.external_id`: the account's id in the system it came from (unique when set), so a
 *   later import or a provisioning client can name it.
 * - `import_uploads`: one uploaded file as read — its format, how its columns were understood
 *   and its first rows — and `import_rows`, its lines, staged in the database as they are read
 *   (`record`: the line's fields as JSON; `email_key`: the canonical e-mail, so a later line
 *   repeating an earlier one is found with one index read). Any instance can work on them, and a
 *   restart loses nothing once the upload has been answered.
 * - `jobs.idempotency_key`: a retried upload (same caller, same `Idempotency-Key`) answers the
 *   first job instead of starting a second.
 * - `job_items.line`: the file's line a report entry is about.
 * - `import_changes`: each user an import created or updated, with the account's lock version
 *   right after, so an undo can tell the users changed since (and leave them alone).
 */
export const imports: Migration = {
  name: '0014-imports',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    await qi.addColumn('users', 'external_id', { type: DataTypes.STRING(255), allowNull: true });
    await qi.addIndex('users', ['external_id'], { name: 'users_external_id', unique: true });
    await qi.createTable(
      'import_uploads',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        actor_id: { type: t.fk, allowNull: true },
        /** The job reading it (set when the job is queued); its lines go once that job is over. */
        job_id: { type: t.fk, allowNull: true },
        name: { type: DataTypes.STRING(255), allowNull: true },
        bytes: { type: DataTypes.BIGINT, allowNull: false },
        format: { type: DataTypes.STRING(8), allowNull: false },
        encoding: { type: DataTypes.STRING(16), allowNull: true },
        delimiter: { type: DataTypes.STRING(1), allowNull: true },
        sheet: { type: DataTypes.STRING(64), allowNull: true },
        rows: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        columns: { type: t.longText, allowNull: false },
        sample: { type: t.longText, allowNull: false },
        created_at: { type: t.date, allowNull: false },
        /** Null while the file is being read: an upload that never completes is pruned. */
        completed_at: { type: t.date, allowNull: true },
      },
      table,
    );
    await qi.addIndex('import_uploads', ['created_at'], { name: 'import_uploads_created' });
    await qi.addIndex('import_uploads', ['job_id'], { name: 'import_uploads_job' });
    await qi.createTable(
      'import_rows',
      {
        upload_id: { type: t.fk, allowNull: false, primaryKey: true },
        line: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
        email_key: { type: t.ciText(255), allowNull: true },
        record: { type: DataTypes.TEXT, allowNull: false },
      },
      table,
    );
    await qi.addIndex('import_rows', ['upload_id', 'email_key', 'line'], { name: 'import_rows_email' });
    await qi.addColumn('jobs', 'idempotency_key', { type: DataTypes.STRING(255), allowNull: true });
    await qi.addIndex('jobs', ['actor_id', 'idempotency_key'], { name: 'jobs_idempotency', unique: true });
    await qi.addColumn('job_items', 'line', { type: DataTypes.INTEGER, allowNull: true });
    await qi.createTable(
      'import_changes',
      {
        job_id: { type: t.fk, allowNull: false, primaryKey: true },
        user_id: { type: t.fk, allowNull: false, primaryKey: true },
        change: { type: DataTypes.STRING(8), allowNull: false },
        line: { type: DataTypes.INTEGER, allowNull: false },
        /** The account's lock version once the import wrote it. */
        lock_version: { type: DataTypes.INTEGER, allowNull: false },
        /** For `update`: the changed fields as they were before (the diff its audit row holds), as JSON. */
        before: { type: DataTypes.TEXT, allowNull: true },
      },
      table,
    );
  },
  async down({ qi }) {
    await qi.dropTable('import_changes');
    await qi.removeColumn('job_items', 'line');
    await qi.removeIndex('jobs', 'jobs_idempotency');
    await qi.removeColumn('jobs', 'idempotency_key');
    await qi.dropTable('import_rows');
    await qi.dropTable('import_uploads');
    await qi.removeIndex('users', 'users_external_id');
    // In place: Sequelize's removeColumn rebuilds a SQLite table, and dropping `users` cascades.
    await qi.sequelize.query('ALTER TABLE users DROP COLUMN external_id');
  },
};
