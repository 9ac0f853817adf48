import type { AuditAction } from '@app/contracts';
import {
  ACTIVATE,
  bulkContext,
  changeSet,
  DEACTIVATE,
  deletedNow,
  ERASED,
  type EventSql,
  email,
  exportContext,
  jsonString,
  lit,
  name,
  PASSWORD_ONLY,
  roles,
  TOKENS,
  UPDATE_SHAPES,
  updateChanges,
} from './audit-event-sql.js';

// What the seeded audit trail holds: who acts, from where, and each action's weight, targets, door and JSON.

/** Who acts: this many demo administrators (then managers), the first by id; a few do most. */
export const ACTORS = 300;
/** Client addresses; a few (offices) send most requests. */
export const IPS = 3_000;
/** A bulk names 2 to this many users, most of them few. */
export const BULK_MAX = 500;

/**
 * Whose ids an event names: a random demo user (`one`), the actor (login, logout), a staff
 * member or, for an unknown e-mail, nobody (failed login), 2–500 demo users (`bulk`), a role,
 * nobody (downloads).
 */
export type TargetKind = 'one' | 'self' | 'staffOrNobody' | 'bulk' | 'role' | 'none';
/**
 * How it came in: as `auditOriginOf` records a request — the SPA, a token or the command line
 * (`origin`); the SPA or a token (`web`: downloads); the SPA (`session`); a request with no
 * origin (`request`: a failed login); a CLI command that records neither (`command`).
 */
export type DoorKind = 'origin' | 'web' | 'session' | 'request' | 'command';

export interface ActionSpec {
  action: AuditAction;
  /** Relative frequency, events per ~10 000. */
  weight: number;
  /** Staff act (except from the command line); nobody for a failed login or a CLI command. */
  staff: boolean;
  targets: TargetKind;
  door: DoorKind;
  /** `target_type` when it is not `user`. */
  targetType?: 'role' | null;
  /** The stored `changes` JSON, as SQL. */
  changes?: (e: EventSql) => string;
  /** The stored `context` JSON, as SQL (the command line's `source` is put first when it applies). */
  context?: (e: EventSql) => string;
}

/** Weighted like real use: edits, status changes and logins; a few bulks; the rest rare. */
export const ACTIONS: readonly ActionSpec[] = [
  {
    action: 'user.update',
    weight: 3_100,
    staff: true,
    targets: 'one',
    door: 'origin',
    changes: updateChanges,
    context: (e) =>
      `IF(${e.hash('u')} % ${UPDATE_SHAPES} = ${PASSWORD_ONLY}, '{"passwordChanged":true,"sessionsEnded":1,"tokensRevoked":0}', NULL)`,
  },
  { action: 'auth.login', weight: 2_600, staff: true, targets: 'self', door: 'session' },
  {
    action: 'user.deactivate',
    weight: 1_300,
    staff: true,
    targets: 'one',
    door: 'origin',
    changes: () => lit(DEACTIVATE),
  },
  { action: 'user.activate', weight: 1_100, staff: true, targets: 'one', door: 'origin', changes: () => lit(ACTIVATE) },
  { action: 'auth.logout', weight: 700, staff: true, targets: 'self', door: 'session' },
  {
    action: 'auth.loginFailed',
    weight: 450,
    staff: false,
    targets: 'staffOrNobody',
    door: 'request',
    context: (e) => `CONCAT('{"email":"', ${e.triedEmail}, '"}')`,
  },
  {
    action: 'user.create',
    weight: 300,
    staff: true,
    targets: 'one',
    door: 'origin',
    changes: (e) =>
      changeSet(
        ['name', "'null'", name(e, 'n1')],
        ['email', "'null'", email(e, 'e1')],
        ['is_active', "'null'", "'true'"],
        ['roles', "'null'", roles(e, 'r1')],
      ),
  },
  { action: 'user.delete', weight: 150, staff: true, targets: 'one', door: 'origin', changes: deletedNow },
  {
    action: 'user.restore',
    weight: 50,
    staff: true,
    targets: 'one',
    door: 'origin',
    changes: (e) =>
      changeSet(['deleted_at', jsonString(e.iso(`(${e.ts} - INTERVAL (1 + ${e.n} % 60) DAY)`)), "'null'"]),
  },
  {
    action: 'users.export',
    weight: 60,
    staff: true,
    targets: 'none',
    door: 'web',
    context: exportContext(['id', 'name', 'email', 'roles', 'is_active', 'created_at']),
  },
  {
    action: 'users.bulk.setActive',
    weight: 40,
    staff: true,
    targets: 'bulk',
    door: 'origin',
    changes: (e) => e.pick('b', [lit(DEACTIVATE), lit(DEACTIVATE), lit(DEACTIVATE), lit(ACTIVATE)]),
    context: bulkContext,
  },
  { action: 'user.force_delete', weight: 25, staff: true, targets: 'one', door: 'origin', changes: () => lit(ERASED) },
  {
    action: 'users.bulk.delete',
    weight: 14,
    staff: true,
    targets: 'bulk',
    door: 'origin',
    changes: deletedNow,
    context: bulkContext,
  },
  {
    action: 'audit.export',
    weight: 12,
    staff: true,
    targets: 'none',
    door: 'web',
    targetType: null,
    context: exportContext(['id', 'occurred_at', 'actor_name', 'action', 'target_ids', 'changes', 'ip', 'via']),
  },
  {
    action: 'token.create',
    weight: 10,
    staff: false,
    targets: 'one',
    door: 'command',
    context: (e) =>
      `CONCAT('{"source":"cli","tokenId":', 1 + ${e.n} % 5000, ',"name":"', ${e.pick('k', TOKENS.map(lit))}, '","expiresAt":null}')`,
  },
  {
    action: 'users.bulk.restore',
    weight: 5,
    staff: true,
    targets: 'bulk',
    door: 'origin',
    changes: () => lit('{"deleted_at":{"before":"deleted","after":null}}'),
    context: bulkContext,
  },
  {
    action: 'users.bulk.forceDelete',
    weight: 3,
    staff: true,
    targets: 'bulk',
    door: 'origin',
    changes: () => lit(ERASED),
    context: bulkContext,
  },
  {
    action: 'role.create',
    weight: 2,
    staff: false,
    targets: 'role',
    door: 'command',
    targetType: 'role',
    changes: () =>
      lit(
        '{"name":{"before":null,"after":"auditor"},"permissions":{"before":null,"after":["users.view","audit.view"]}}',
      ),
    context: () => lit('{"source":"cli"}'),
  },
];

const weightOf = (kind: TargetKind) => ACTIONS.reduce((a, s) => a + (s.targets === kind ? s.weight : 0), 0);

/** The seeded trail in a sentence, for the report. */
export const AUDIT_TRAIL_SHAPE =
  'one event per equal slot of the 3 years before the seed; user updates, logins, deactivations and activations ' +
  `most, a bulk of 2–${BULK_MAX} users (most of them few) 1 in ${Math.round(ACTIONS.reduce((a, s) => a + s.weight, 0) / weightOf('bulk'))}, ` +
  `the other actions rare; ${ACTORS} staff act, a few of them most; ${IPS.toLocaleString('en')} client addresses; ` +
  'through a session, a token or the command line';
