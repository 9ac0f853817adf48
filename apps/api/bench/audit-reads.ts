import type mysql from 'mysql2/promise';
import { ACTORS } from './audit-actions.js';
import { ADMIN_EMAIL } from './seed.js';

// What the seeding reads of the trail already there, and its check of what it wrote.

export type Row = mysql.RowDataPacket;

/** The administrator the bench acts as: the events it writes (its write scenarios) are not the seed's. */
async function adminId(conn: mysql.Connection): Promise<number> {
  const [rows] = await conn.query<Row[]>('SELECT id FROM users WHERE email = ?', [ADMIN_EMAIL]);
  return Number(rows[0]?.id ?? 0);
}

/** Events of the seed: all but those the bench's administrator wrote. */
export async function seededEvents(conn: mysql.Connection): Promise<number> {
  const [[all]] = (await conn.query<Row[]>('SELECT COUNT(*) AS n FROM audit_logs')) as unknown as [[{ n: number }]];
  const [[own]] = (await conn.query<Row[]>('SELECT COUNT(*) AS n FROM audit_logs WHERE actor_id = ?', [
    await adminId(conn),
  ])) as unknown as [[{ n: number }]];
  return Number(all.n) - Number(own.n);
}

/** The staff who act in the trail, the busiest first (the seed's skew favours the first). */
export async function auditActors(conn: mysql.Connection): Promise<number[]> {
  const [rows] = await conn.query<Row[]>(
    `SELECT u.id, MAX(r.name = 'admin') AS admin FROM users u
       JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
      WHERE r.name IN ('admin', 'manager') AND u.email <> ? AND u.deleted_at IS NULL
      GROUP BY u.id ORDER BY admin DESC, u.id LIMIT ?`,
    [ADMIN_EMAIL, ACTORS],
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Checks that each user event's `target_ids` and its `audit_targets` rows name the same ids (the
 * two are written by different statements): every JSON id has its row, and there are no other rows.
 */
export async function checkTargets(conn: mysql.Connection, ids: { from: number; to: number }): Promise<void> {
  const [[r]] = (await conn.query<Row[]>(
    `SELECT
       (SELECT COUNT(*) FROM audit_logs a
          CROSS JOIN JSON_TABLE(a.target_ids, '$[*]' COLUMNS (t INT UNSIGNED PATH '$')) j
         WHERE a.id BETWEEN ? AND ? AND a.target_type = 'user') AS listed,
       (SELECT COUNT(*) FROM audit_logs a
          CROSS JOIN JSON_TABLE(a.target_ids, '$[*]' COLUMNS (t INT UNSIGNED PATH '$')) j
          JOIN audit_targets x ON x.target_id = j.t AND x.audit_id = a.id
         WHERE a.id BETWEEN ? AND ? AND a.target_type = 'user') AS matched,
       (SELECT COUNT(*) FROM audit_targets WHERE audit_id BETWEEN ? AND ?) AS stored`,
    [ids.from, ids.to, ids.from, ids.to, ids.from, ids.to],
  )) as unknown as [[{ listed: number; matched: number; stored: number }]];
  const [listed, matched, stored] = [Number(r.listed), Number(r.matched), Number(r.stored)];
  if (listed !== matched || matched !== stored) {
    throw new Error(
      `seeded audit targets disagree: ${listed} ids in target_ids, ${matched} of them in audit_targets, ${stored} rows there`,
    );
  }
}
