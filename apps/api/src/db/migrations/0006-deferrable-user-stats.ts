import type { Sequelize } from 'sequelize';
import { EVENTS, STATE_CHANGED, statements, triggerName } from './0003-user-stats.js';
import type { Migration } from './migrator.js';

/**
 * The stats triggers stand aside while the connection's `@user_stats_deferred` is set: a batch
 * write (POST /users/bulk) sets it, changes its rows and moves the counters once, in the same
 * transaction (see modules/users/users.stats-deferral.ts). Per-row triggers there would update
 * the one stats row 10 000 times, leaving an undo chain that every list's read of it walks
 * while the batch is open (measured: 0.4 → 3.8 ms per read) and locking it, against every
 * other status change, for the batch's whole duration. Every other path keeps the triggers.
 * MySQL/MariaDB only: SQLite runs one writer at a time and has no session variables.
 */
export const deferrableUserStats: Migration = {
  name: '0006-deferrable-user-stats',
  async up({ qi, dialect }) {
    if (dialect !== 'mysql') return;
    await replaceTriggers(qi.sequelize, (event) =>
      event === 'UPDATE' ? `@user_stats_deferred IS NULL AND ${STATE_CHANGED.mysql}` : '@user_stats_deferred IS NULL',
    );
  },
  async down({ qi, dialect }) {
    if (dialect !== 'mysql') return;
    await replaceTriggers(qi.sequelize, (event) => (event === 'UPDATE' ? STATE_CHANGED.mysql : 'TRUE'));
  },
};

async function replaceTriggers(seq: Sequelize, condition: (event: (typeof EVENTS)[number]) => string) {
  const [[version]] = (await seq.query('SELECT VERSION() AS v')) as unknown as [[{ v: string }]];
  // MariaDB swaps a trigger atomically; MySQL has no OR REPLACE for triggers, so there a write
  // racing the migration could miss the counters (migrations run before the API serves).
  const mariadb = /mariadb/i.test(version.v);
  for (const event of EVENTS) {
    const name = triggerName(event);
    if (!mariadb) await seq.query(`DROP TRIGGER IF EXISTS ${name}`);
    await seq.query(
      `CREATE ${mariadb ? 'OR REPLACE ' : ''}TRIGGER ${name} AFTER ${event} ON users FOR EACH ROW ` +
        `BEGIN IF ${condition(event)} THEN ${statements(event)}; END IF; END`,
    );
  }
}
