import { expect } from 'vitest';
import type { LoadReport } from './load.js';
import type { MariaDbInstance } from './mariadb.js';

const DB = 'useradmin';

interface AuditRow {
  id: number;
  action: string;
  request_id: string | null;
  changes: string | Record<string, { before: unknown; after: unknown }> | null;
  targets: number;
}

const changesOf = (row: AuditRow) =>
  (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as Record<
    string,
    { after: unknown }
  > | null;

/**
 * What a fault must never break, checked on the primary after the load:
 * - every bulk is all-or-nothing: answered 200, its event names exactly the users it reported;
 *   answered otherwise, it left no event or a whole one (a commit whose answer was lost);
 * - no audit target without its event, no user event without a target;
 * - every user's `is_active` is what that user's last recorded change says (no change unrecorded);
 * - user_stats equals a fresh COUNT.
 */
export async function expectConsistent(primary: MariaDbInstance, report: LoadReport) {
  const events = (await primary.sql(
    `SELECT a.id, a.action, a.request_id, a.changes, COUNT(t.audit_id) AS targets
       FROM audit_logs a LEFT JOIN audit_targets t ON t.audit_id = a.id
      WHERE a.action IN ('users.bulk.setActive', 'user.activate', 'user.deactivate')
      GROUP BY a.id ORDER BY a.id`,
    DB,
  )) as AuditRow[];
  const byRequest = new Map<string, AuditRow[]>();
  for (const e of events) {
    if (e.request_id) byRequest.set(e.request_id, [...(byRequest.get(e.request_id) ?? []), e]);
  }
  let bulksChecked = 0;
  for (const o of report.outcomes) {
    if (o.kind !== 'bulk' || !o.requestId) continue;
    const recorded = byRequest.get(o.requestId) ?? [];
    if (o.bulk) {
      expect(recorded.length, `bulk ${o.requestId}`).toBe(o.bulk.affected.length ? 1 : 0);
      if (o.bulk.affected.length) expect(Number(recorded[0]?.targets)).toBe(o.bulk.affected.length);
      bulksChecked++;
    } else {
      expect(recorded.length, `failed bulk ${o.requestId}`).toBeLessThanOrEqual(1);
    }
  }

  const [orphans] = (await primary.sql(
    `SELECT
       (SELECT COUNT(*) FROM audit_targets t LEFT JOIN audit_logs a ON a.id = t.audit_id WHERE a.id IS NULL) AS targets,
       (SELECT COUNT(*) FROM audit_logs a WHERE a.action IN ('users.bulk.setActive', 'user.activate', 'user.deactivate')
          AND NOT EXISTS (SELECT 1 FROM audit_targets t WHERE t.audit_id = a.id)) AS events`,
    DB,
  )) as Array<{ targets: number; events: number }>;
  expect({ targets: Number(orphans?.targets), events: Number(orphans?.events) }).toEqual({ targets: 0, events: 0 });

  // The last recorded is_active of each user, in event order, against the row.
  const targets = (await primary.sql(
    `SELECT t.audit_id, t.target_id FROM audit_targets t JOIN audit_logs a ON a.id = t.audit_id
      WHERE a.action IN ('users.bulk.setActive', 'user.activate', 'user.deactivate') ORDER BY t.audit_id`,
    DB,
  )) as Array<{ audit_id: number; target_id: number }>;
  const eventById = new Map(events.map((e) => [e.id, e]));
  const lastActive = new Map<number, boolean>();
  for (const t of targets) {
    const after = changesOf(eventById.get(t.audit_id) as AuditRow)?.is_active?.after;
    if (typeof after === 'boolean') lastActive.set(t.target_id, after);
  }
  const users = (await primary.sql('SELECT id, is_active FROM users', DB)) as Array<{ id: number; is_active: number }>;
  const mismatched = users.filter((u) => lastActive.has(u.id) && lastActive.get(u.id) !== (u.is_active === 1));
  expect(mismatched).toEqual([]);

  const [stats] = (await primary.sql('SELECT total, active, trashed FROM user_stats WHERE id = 1', DB)) as Array<
    Record<string, number>
  >;
  const [fresh] = (await primary.sql(
    `SELECT SUM(deleted_at IS NULL) AS total, SUM(deleted_at IS NULL AND is_active = 1) AS active,
            SUM(deleted_at IS NOT NULL) AS trashed FROM users`,
    DB,
  )) as Array<Record<string, number>>;
  const numbers = (r: Record<string, number> | undefined) => ({
    total: Number(r?.total),
    active: Number(r?.active),
    trashed: Number(r?.trashed),
  });
  expect(numbers(stats)).toEqual(numbers(fresh));
  return { events: events.length, bulksChecked, usersWithHistory: lastActive.size };
}
