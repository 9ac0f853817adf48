import { DataTypes, type QueryInterface, QueryTypes, type Sequelize } from 'sequelize';
import { columnTypes } from './frozen-column-types.js';
import type { Migration } from './migration.js';

/** Audit rows per backfill transaction. */
const BATCH = 5_000;

/**
 * The audit trail becomes browsable (issue: the audit log as a resource):
 *
 * - `audit_targets (target_id, audit_id)`: one row per target of an event, written with the event
 *   in its transaction, so "this user's history" is a range of the primary key instead of a scan
 *   of a JSON column. Existing events are backfilled in batches of BATCH, each a short
 *   transaction; an event written meanwhile already has its rows (the writer adds them).
 * - `via` and `via_name`: how a change came in (`session`, `token` with the token's name, `cli`),
 *   kept with the event because tokens are revoked and sessions end.
 * - indexes for the IP filter and request-id search, newest first (actor and action have theirs).
 * - the `audit.view` permission, granted to the seeded `admin` role where it exists.
 */
export const auditTrail: Migration = {
  name: '0008-audit-trail',
  async up({ qi, dialect, progress }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    await qi.createTable(
      'audit_targets',
      {
        target_id: { type: t.fk, allowNull: false, primaryKey: true },
        audit_id: { type: t.fk, allowNull: false, primaryKey: true },
      },
      table,
    );
    // Pruning deletes an event's targets by event.
    await qi.addIndex('audit_targets', ['audit_id'], { name: 'audit_targets_audit' });
    await qi.addColumn('audit_logs', 'via', { type: DataTypes.STRING(16), allowNull: true });
    await qi.addColumn('audit_logs', 'via_name', { type: DataTypes.STRING(100), allowNull: true });
    // Actor and action already have (…, created_at) indexes (0001); the list reads newest first.
    await qi.addIndex('audit_logs', ['ip', 'created_at'], { name: 'audit_logs_ip' });
    await qi.addIndex('audit_logs', ['request_id', 'created_at'], { name: 'audit_logs_request' });
    await grantAuditView(qi);
    await backfillTargets(qi.sequelize, dialect, progress ?? (() => undefined));
  },
  async down({ qi }) {
    await qi.removeIndex('audit_logs', 'audit_logs_request');
    await qi.removeIndex('audit_logs', 'audit_logs_ip');
    await qi.removeColumn('audit_logs', 'via_name');
    await qi.removeColumn('audit_logs', 'via');
    await qi.dropTable('audit_targets');
  },
};

async function grantAuditView(qi: QueryInterface) {
  const seq = qi.sequelize;
  const now = new Date();
  const found = await seq.query<{ id: number }>("SELECT id FROM permissions WHERE name = 'audit.view'", {
    type: QueryTypes.SELECT,
  });
  if (found.length === 0) {
    await qi.bulkInsert('permissions', [{ name: 'audit.view', guard_name: 'web', created_at: now, updated_at: now }]);
  }
  await seq.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT r.id, p.id FROM roles r JOIN permissions p ON p.name = 'audit.view'
      WHERE r.name = 'admin'
        AND NOT EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = r.id AND rp.permission_id = p.id)`,
  );
}

/** One `audit_targets` row per id in each event's `target_ids`, BATCH events at a time. */
async function backfillTargets(seq: Sequelize, dialect: 'mysql' | 'sqlite', progress: (message: string) => void) {
  const [[bounds]] = (await seq.query('SELECT MIN(id) AS lo, MAX(id) AS hi, COUNT(*) AS n FROM audit_logs')) as [
    [{ lo: number | null; hi: number | null; n: number | string }],
    unknown,
  ];
  if (bounds.lo === null || bounds.hi === null) return;
  const ids =
    dialect === 'mysql'
      ? `JSON_TABLE(a.target_ids, '$[*]' COLUMNS (target_id INT UNSIGNED PATH '$')) AS j`
      : 'json_each(a.target_ids) AS j';
  const target = dialect === 'mysql' ? 'j.target_id' : 'CAST(j.value AS INTEGER)';
  const insert = `${dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE'} INTO audit_targets (target_id, audit_id)
    SELECT DISTINCT ${target}, a.id FROM audit_logs a, ${ids}
     WHERE a.id BETWEEN :from AND :to AND ${target} > 0`;
  const started = Date.now();
  const lo = Number(bounds.lo);
  const hi = Number(bounds.hi);
  progress(`audit targets: indexing ${Number(bounds.n).toLocaleString('en')} events`);
  for (let from = lo; from <= hi; from += BATCH) {
    const to = Math.min(hi, from + BATCH - 1);
    await seq.transaction(async (transaction) => {
      await seq.query(insert, { replacements: { from, to }, transaction });
    });
  }
  progress(`audit targets: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
