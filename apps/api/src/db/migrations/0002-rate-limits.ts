import { DataTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * Fixed-window counters for abuse limits (login attempts, exports). They live in the database,
 * not in process memory, so every API instance behind a load balancer counts the same hits.
 */
export const rateLimits: Migration = {
  name: '0002-rate-limits',
  async up({ qi, dialect }) {
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_bin', engine: 'InnoDB' } : {};
    await qi.createTable(
      'rate_limits',
      {
        bucket: { type: DataTypes.STRING(100), primaryKey: true, allowNull: false },
        window_start_ms: { type: DataTypes.BIGINT, allowNull: false },
        hits: { type: DataTypes.INTEGER, allowNull: false },
      },
      table,
    );
    await qi.addIndex('rate_limits', ['window_start_ms'], { name: 'rate_limits_window' });
  },
  async down({ qi }) {
    await qi.dropTable('rate_limits');
  },
};
