import { DataTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * Exact user counts without a COUNT over a million rows on every list request. A one-row table
 * is kept current by triggers on `users`, so every write path (API, bulk, CLI, seeding, a manual
 * UPDATE) moves the counters in the same transaction as the row: they cannot drift.
 */
const contribution = (row: 'NEW' | 'OLD') => ({
  total: `(${row}.deleted_at IS NULL)`,
  active: `(${row}.deleted_at IS NULL AND ${row}.is_active = 1)`,
  trashed: `(${row}.deleted_at IS NOT NULL)`,
});

function statements(event: 'INSERT' | 'UPDATE' | 'DELETE'): string {
  const n = contribution('NEW');
  const o = contribution('OLD');
  const delta = (key: keyof typeof n) =>
    event === 'INSERT' ? `+ ${n[key]}` : event === 'DELETE' ? `- ${o[key]}` : `+ ${n[key]} - ${o[key]}`;
  return `UPDATE user_stats SET total = total ${delta('total')}, active = active ${delta('active')}, trashed = trashed ${delta('trashed')} WHERE id = 1`;
}

const EVENTS = ['INSERT', 'UPDATE', 'DELETE'] as const;
const triggerName = (event: string) => `users_stats_${event.toLowerCase()}`;

/**
 * An update that changes neither state leaves the counters (and their row lock) alone, so
 * editing names and e-mails never queues behind the stats row.
 */
const STATE_CHANGED = {
  mysql: 'NOT (NEW.is_active <=> OLD.is_active AND NEW.deleted_at <=> OLD.deleted_at)',
  sqlite: 'NOT (NEW.is_active IS OLD.is_active AND NEW.deleted_at IS OLD.deleted_at)',
};

export const userStats: Migration = {
  name: '0003-user-stats',
  async up({ qi, dialect }) {
    await qi.createTable('user_stats', {
      id: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false },
      total: { type: DataTypes.BIGINT, allowNull: false },
      active: { type: DataTypes.BIGINT, allowNull: false },
      trashed: { type: DataTypes.BIGINT, allowNull: false },
    });
    const seq = qi.sequelize;
    await seq.query(
      `INSERT INTO user_stats (id, total, active, trashed)
       SELECT 1,
              COALESCE(SUM(CASE WHEN deleted_at IS NULL THEN 1 ELSE 0 END), 0),
              COALESCE(SUM(CASE WHEN deleted_at IS NULL AND is_active = 1 THEN 1 ELSE 0 END), 0),
              COALESCE(SUM(CASE WHEN deleted_at IS NOT NULL THEN 1 ELSE 0 END), 0)
         FROM users`,
    );
    for (const event of EVENTS) {
      const body = statements(event);
      const name = triggerName(event);
      if (dialect === 'mysql') {
        await seq.query(
          event === 'UPDATE'
            ? `CREATE TRIGGER ${name} AFTER UPDATE ON users FOR EACH ROW BEGIN IF ${STATE_CHANGED.mysql} THEN ${body}; END IF; END`
            : `CREATE TRIGGER ${name} AFTER ${event} ON users FOR EACH ROW ${body}`,
        );
      } else {
        const when = event === 'UPDATE' ? ` WHEN ${STATE_CHANGED.sqlite}` : '';
        await seq.query(`CREATE TRIGGER ${name} AFTER ${event} ON users FOR EACH ROW${when} BEGIN ${body}; END`);
      }
    }
  },
  async down({ qi }) {
    for (const event of EVENTS) await qi.sequelize.query(`DROP TRIGGER IF EXISTS ${triggerName(event)}`);
    await qi.dropTable('user_stats');
  },
};
