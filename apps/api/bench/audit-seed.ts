import type mysql from 'mysql2/promise';
import { auditActors, checkTargets, type Row, seededEvents } from './audit-reads.js';
import { batchStatements, SPAN_SECONDS, type SeedParams } from './audit-statements.js';
import { ADMIN_EMAIL, type ConnectionSettings, connect } from './seed.js';

/**
 * The audit trail of the bench database: N events written by SQL alone (INSERT … SELECT over
 * MariaDB's sequence engine, `seq_A_to_B`), stored as `recordChange` stores them, with their
 * `audit_targets` rows. Event n (1…N) is a pure function of n — CRC32s of n pick its action,
 * actor, targets, address and door; MD5 of n is its request id — so a seed that stopped resumes
 * where it stopped. Event n happens in the n-th of N equal slots of the 3 years before the seed.
 */

/** Events per INSERT … SELECT; each batch (events and their target rows) is one transaction. */
export const EVENTS_PER_STATEMENT = 500_000;
const SEED_TIME_LIMIT_MS = 60 * 60_000;

async function seedParams(conn: mysql.Connection, total: number, first: number): Promise<SeedParams> {
  const [[range]] = (await conn.query<Row[]>('SELECT MIN(id) AS min, MAX(id) AS max FROM users WHERE email <> ?', [
    ADMIN_EMAIL,
  ])) as unknown as [[{ min: number | null; max: number | null }]];
  const actors = await auditActors(conn);
  const [roles] = await conn.query<Row[]>('SELECT id FROM roles ORDER BY id');
  const [[last]] = (await conn.query<Row[]>('SELECT COALESCE(MAX(id), 0) AS id FROM audit_logs')) as unknown as [
    [{ id: number }],
  ];
  if (range.min === null || range.max === null || actors.length === 0 || roles.length === 0) {
    throw new Error('audit events need demo users, some of them administrators or managers, and roles');
  }
  return {
    total,
    startSeconds: Math.floor(Date.now() / 1000) - SPAN_SECONDS,
    idOffset: Number(last.id) - (first - 1),
    demo: { min: Number(range.min), max: Number(range.max) },
    actors,
    roles: roles.map((r) => Number(r.id)),
  };
}

export interface AuditSeed {
  /** Events of the seed in the database (those the bench itself wrote not counted). */
  events: number;
  /** What this run added: events, target rows, seconds. */
  seeded: { added: number; targets: number; seconds: number } | null;
}

/**
 * Makes the trail hold `total` seeded events: appends the missing ones (all of them in a fresh
 * database; the rest of an interrupted seed, which continues with the same events), or keeps
 * them when they are there. With `check`, the seeded events' target rows are verified.
 */
export async function seedAuditEvents(
  settings: ConnectionSettings,
  total: number,
  opts: { check: boolean },
  log: (s: string) => void,
): Promise<AuditSeed> {
  const conn = await connect(settings);
  try {
    const existing = await seededEvents(conn);
    if (existing > total) {
      throw new Error(
        `${settings.database} holds ${existing.toLocaleString('en')} seeded audit events, more than --audit-events ${total.toLocaleString('en')}: ` +
          'run without --reuse to reseed it, or pass the right --audit-events.',
      );
    }
    if (existing === total) {
      log(`reusing ${existing.toLocaleString('en')} audit events`);
      return { events: total, seeded: null };
    }
    const count = total - existing;
    log(
      `seeding ${count.toLocaleString('en')} audit events${existing ? ` (after ${existing.toLocaleString('en')} already there)` : ''}`,
    );
    const started = Date.now();
    const [[saved]] = (await conn.query<Row[]>('SELECT @@SESSION.time_zone AS tz')) as unknown as [[{ tz: string }]];
    await conn.query("SET SESSION time_zone = '+00:00'");
    try {
      const params = await seedParams(conn, total, existing + 1);
      let targets = 0;
      for (let from = existing + 1; from <= total; from += EVENTS_PER_STATEMENT) {
        if (Date.now() - started > SEED_TIME_LIMIT_MS)
          throw new Error('seeding audit events took more than an hour: stopped');
        const to = Math.min(total, from + EVENTS_PER_STATEMENT - 1);
        await conn.query('START TRANSACTION');
        try {
          const [events, ...targetStatements] = batchStatements(params, from, to);
          await conn.query(events as string);
          for (const sql of targetStatements) {
            targets += (await conn.query<mysql.ResultSetHeader>(sql))[0].affectedRows;
          }
          await conn.query('COMMIT');
        } catch (err) {
          await conn.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
        const done = to - existing;
        const seconds = (Date.now() - started) / 1000;
        log(
          `  seeded ${done.toLocaleString('en')} / ${count.toLocaleString('en')} audit events, ${targets.toLocaleString('en')} target rows (${Math.round(done / seconds)} events/s)`,
        );
      }
      if (opts.check) {
        await checkTargets(conn, { from: params.idOffset + existing + 1, to: params.idOffset + total });
        log('  checked: each seeded event has an audit_targets row for every id of its target_ids, and no other');
      }
      await conn.query('ANALYZE TABLE audit_logs, audit_targets');
      const seconds = (Date.now() - started) / 1000;
      log(
        `seeded ${count.toLocaleString('en')} audit events and ${targets.toLocaleString('en')} target rows in ${seconds.toFixed(1)} s`,
      );
      return { events: total, seeded: { added: count, targets, seconds } };
    } finally {
      await conn.query('SET SESSION time_zone = ?', [saved.tz]).catch(() => undefined);
    }
  } finally {
    await conn.end().catch(() => undefined);
  }
}

/** What the audit scenarios ask for, read from the seeded trail. */
export interface AuditBenchData {
  /** Seeded events. */
  events: number;
  /** The busiest actor. */
  actorId: number;
  /** A staff member with a long history, as actor and as target (login, logout, failed logins). */
  historyUserId: number;
  /** An ordinary demo user (the one whose e-mail the users' search scenarios look for) and that e-mail. */
  targetUser: { id: number; email: string };
  /** The address the busiest actor used last. */
  ip: string;
}

export async function auditBenchData(
  settings: ConnectionSettings,
  events: number,
  targetEmail: string,
): Promise<AuditBenchData> {
  const conn = await connect(settings);
  try {
    const actors = await auditActors(conn);
    const actorId = actors[0];
    const [target] = await conn.query<Row[]>('SELECT id FROM users WHERE email = ?', [targetEmail]);
    const [ip] = await conn.query<Row[]>(
      'SELECT ip FROM audit_logs WHERE actor_id = ? AND ip IS NOT NULL ORDER BY created_at DESC LIMIT 1',
      [actorId ?? 0],
    );
    if (actorId === undefined || !target[0] || !ip[0]) {
      throw new Error('the audit scenarios need seeded audit events (an actor, an address) and the middle demo user');
    }
    return {
      events,
      actorId,
      historyUserId: actors[Math.min(9, actors.length - 1)] as number,
      targetUser: { id: Number(target[0].id), email: targetEmail },
      ip: String(ip[0].ip),
    };
  } finally {
    await conn.end().catch(() => undefined);
  }
}
