import type { Sequelize } from 'sequelize';
import { columnTypes } from './frozen-column-types.js';
import type { Migration } from './migration.js';

/** Events per backfill transaction. */
const BATCH = 20_000;

/**
 * A user's history newest first, read from one index (issue: the audit log at 10 M events).
 *
 * `audit_targets (target_id, audit_id)` found a user's events, but not in time order: listing an
 * administrator who is the target of 35 000 events (their own sign-ins) looked each one up to
 * read its time and sorted them all — 1.8 s at 10 M events. The event's time is now copied beside
 * each target and indexed as `(target_id, created_at, audit_id)`, so the newest 25 are the first
 * 25 entries of the index. Existing rows are filled in batches of BATCH events, each a short
 * transaction; rows written meanwhile already carry it (the writer sets it).
 *
 * The table holds users only: 0008 also indexed the targets of events about something else (a
 * role's id, from `role.create`), which put that role's events in the history of the user with
 * the same id. Those rows are removed; the writer no longer adds them.
 */
export const auditTargetTime: Migration = {
  name: '0009-audit-target-time',
  async up({ qi, dialect, progress }) {
    const t = columnTypes(dialect);
    // Nullable, so adding it is instant on a large table; the writer always sets it.
    await qi.addColumn('audit_targets', 'created_at', { type: t.date, allowNull: true });
    await qi.sequelize.query(
      `DELETE FROM audit_targets WHERE audit_id IN
         (SELECT id FROM audit_logs WHERE target_type IS NULL OR target_type <> 'user')`,
    );
    await backfill(qi.sequelize, dialect, progress ?? (() => undefined));
    await qi.addIndex('audit_targets', ['target_id', 'created_at', 'audit_id'], { name: 'audit_targets_time' });
  },
  async down({ qi }) {
    await qi.removeIndex('audit_targets', 'audit_targets_time');
    // Plain SQL: Sequelize's SQLite removeColumn rebuilds the table and loses its two-column key.
    await qi.sequelize.query('ALTER TABLE audit_targets DROP COLUMN created_at');
  },
};

async function backfill(seq: Sequelize, dialect: 'mysql' | 'sqlite', progress: (message: string) => void) {
  const [[bounds]] = (await seq.query('SELECT MIN(id) AS lo, MAX(id) AS hi FROM audit_logs')) as [
    [{ lo: number | null; hi: number | null }],
    unknown,
  ];
  if (bounds.lo === null || bounds.hi === null) return;
  const update =
    dialect === 'mysql'
      ? `UPDATE audit_targets t JOIN audit_logs a ON a.id = t.audit_id SET t.created_at = a.created_at
          WHERE t.audit_id BETWEEN :from AND :to`
      : `UPDATE audit_targets SET created_at = (SELECT a.created_at FROM audit_logs a WHERE a.id = audit_targets.audit_id)
          WHERE audit_id BETWEEN :from AND :to`;
  const started = Date.now();
  const lo = Number(bounds.lo);
  const hi = Number(bounds.hi);
  progress(`audit targets: copying event times for events ${lo}–${hi}`);
  for (let from = lo; from <= hi; from += BATCH) {
    const to = Math.min(hi, from + BATCH - 1);
    await seq.transaction(async (transaction) => {
      await seq.query(update, { replacements: { from, to }, transaction });
    });
  }
  progress(`audit targets: times copied in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
