import { DataTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * Named rows that writers lock (`SELECT … FOR UPDATE`) to take turns on a rule that spans many
 * rows. `administrators`: every change that could take an administrator away locks it first,
 * so the last-administrator check reads what the previous such change left — one row lock
 * instead of locking every holder of the admin role (tens of thousands at a million users).
 * Nothing else reads or references these rows, so they never join another lock order.
 */
export const writeLocks: Migration = {
  name: '0005-write-locks',
  async up({ qi, dialect }) {
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_bin', engine: 'InnoDB' } : {};
    await qi.createTable(
      'write_locks',
      { name: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false } },
      table,
    );
    await qi.bulkInsert('write_locks', [{ name: 'administrators' }]);
  },
  async down({ qi }) {
    await qi.dropTable('write_locks');
  },
};
