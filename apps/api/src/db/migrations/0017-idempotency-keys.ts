import { DataTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * `Idempotency-Key` as the IETF draft has it (draft-ietf-httpapi-idempotency-key-header):
 *
 * - `jobs.idempotency_key` compares exactly: the key is case-sensitive and a trailing space is a
 *   different key, where MariaDB's unicode_ci collation would fold both (SQLite's default
 *   collation is already binary). Keys are printable ASCII, checked at the door.
 * - `jobs.idempotency_fingerprint`: SHA-256 of the file and the options the key first came with,
 *   so a key reused for a different payload is refused (422) instead of answering the first job.
 * - `idempotency_claims`: a key taken by a request still reading its file, so a second request
 *   with the key meanwhile is told 409 rather than reading the file twice. A claim goes in the
 *   transaction that queues the job, or when the request fails; one left by a process that died
 *   is taken over once older than an hour.
 */
export const idempotencyKeys: Migration = {
  name: '0017-idempotency-keys',
  async up({ qi, dialect }) {
    const mysql = dialect === 'mysql';
    if (mysql) {
      await qi.sequelize.query(
        'ALTER TABLE jobs MODIFY idempotency_key VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NULL',
      );
    }
    await qi.addColumn('jobs', 'idempotency_fingerprint', { type: DataTypes.STRING(64), allowNull: true });
    await qi.createTable(
      'idempotency_claims',
      {
        actor_id: { type: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER, allowNull: false, primaryKey: true },
        idempotency_key: {
          type: mysql ? 'VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin' : DataTypes.STRING(255),
          allowNull: false,
          primaryKey: true,
        },
        claimed_at: { type: mysql ? DataTypes.DATE(3) : DataTypes.DATE, allowNull: false },
      },
      mysql ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {},
    );
  },
  async down({ qi, dialect }) {
    await qi.dropTable('idempotency_claims');
    await qi.removeColumn('jobs', 'idempotency_fingerprint');
    if (dialect === 'mysql') {
      await qi.sequelize.query(
        'ALTER TABLE jobs MODIFY idempotency_key VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NULL',
      );
    }
  },
};
