import type { AuditAction } from '@app/contracts';
import type mysql from 'mysql2/promise';
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
/** Who acts: this many demo administrators (then managers), the first by id; a few do most. */
const ACTORS = 300;
/** Client addresses; a few (offices) send most requests. */
const IPS = 3_000;
const SPAN_SECONDS = 3 * 365 * 86_400;
const SEED_TIME_LIMIT_MS = 60 * 60_000;
/** A bulk names 2 to this many users, most of them few. */
const BULK_MAX = 500;

/**
 * Whose ids an event names: a random demo user (`one`), the actor (login, logout), a staff
 * member or, for an unknown e-mail, nobody (failed login), 2–500 demo users (`bulk`), a role,
 * nobody (downloads).
 */
type TargetKind = 'one' | 'self' | 'staffOrNobody' | 'bulk' | 'role' | 'none';
/**
 * How it came in: as `auditOriginOf` records a request — the SPA, a token or the command line
 * (`origin`); the SPA or a token (`web`: downloads); the SPA (`session`); a request with no
 * origin (`request`: a failed login); a CLI command that records neither (`command`).
 */
type DoorKind = 'origin' | 'web' | 'session' | 'request' | 'command';

/** SQL text of an event's values, for the actions' JSON builders. */
interface EventSql {
  /** The event's index. */
  n: string;
  /** A 32-bit hash of the index, one per salt. */
  hash: (salt: string) => string;
  /** One of `options` (SQL), chosen by the hash of `salt`. */
  pick: (salt: string, options: readonly string[]) => string;
  /** Another of `options` than `pick(unlike, options)`: what a change turned it into. */
  pickOther: (unlike: string, salt: string, options: readonly string[]) => string;
  /** A DATETIME as `Date.toISOString()` writes it. */
  iso: (datetime: string) => string;
  /** When it happened. */
  ts: string;
  /** The e-mail a failed login was tried with. */
  triedEmail: string;
  /** How many users a bulk names. */
  bulkCount: string;
}

interface ActionSpec {
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

const lit = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
const NAMES = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Radia Perlman', 'Ken Thompson', 'Hedy Lamarr'];
const ROLES = ['[]', '["viewer"]', '["manager"]', '["manager","viewer"]', '["admin"]'];
const TOKENS = ['hr-sync', 'okta-scim', 'ci-deploy', 'reporting'];
const ACTIVATE = '{"is_active":{"before":false,"after":true}}';
const DEACTIVATE = '{"is_active":{"before":true,"after":false}}';
const ERASED = '{"record":{"before":"deleted","after":"erased"}}';

/** `{"field":{"before":…,"after":…}}` members, each value already JSON (SQL giving JSON text). */
const changeSet = (...changes: Array<[field: string, before: string, after: string]>) =>
  `CONCAT('{', ${changes.map(([f, b, a]) => `'"${f}":{"before":', ${b}, ',"after":', ${a}, '}'`).join(", ',', ")}, '}')`;
const jsonString = (sql: string) => `CONCAT('"', ${sql}, '"')`;
/** One of `options`, or with `unlike` another than the one its salt picks. */
const choose = (e: EventSql, salt: string, options: readonly string[], unlike?: string) =>
  unlike ? e.pickOther(unlike, salt, options) : e.pick(salt, options);
const name = (e: EventSql, salt: string, unlike?: string) => jsonString(choose(e, salt, NAMES.map(lit), unlike));
const email = (e: EventSql, salt: string, unlike?: string) =>
  jsonString(
    `CONCAT(${choose(e, salt, ['ada', 'alan', 'grace', 'radia', 'ken', 'hedy'].map(lit), unlike)}, '.', ${e.n} % 9973, '@example.com')`,
  );
const roles = (e: EventSql, salt: string, unlike?: string) => choose(e, salt, ROLES.map(lit), unlike);
const deletedNow = (e: EventSql) => changeSet(['deleted_at', "'null'", jsonString(e.iso(e.ts))]);
/** As the bulk handler records it (the seeded bulks skip nobody). */
const bulkContext = (e: EventSql) => `CONCAT('{"requested":', ${e.bulkCount}, ',"skipped":[]}')`;

/** A user update's diff: name, e-mail, roles, status with roles, or nothing (a password change). */
const UPDATE_SHAPES = 8;
const PASSWORD_ONLY = UPDATE_SHAPES - 1;
function updateChanges(e: EventSql): string {
  const shapes = [
    changeSet(['name', name(e, 'n1'), name(e, 'n2', 'n1')]),
    changeSet(['name', name(e, 'n1'), name(e, 'n2', 'n1')]),
    changeSet(['email', email(e, 'e1'), email(e, 'e2', 'e1')]),
    changeSet(['roles', roles(e, 'r1'), roles(e, 'r2', 'r1')]),
    changeSet(['roles', roles(e, 'r1'), roles(e, 'r2', 'r1')]),
    changeSet(['name', name(e, 'n1'), name(e, 'n2', 'n1')], ['email', email(e, 'e1'), email(e, 'e2', 'e1')]),
    changeSet(['is_active', "'true'", "'false'"], ['roles', e.pick('r1', ROLES.slice(1).map(lit)), "'[]'"]),
    "'{}'",
  ];
  return `ELT(1 + ${e.hash('u')} % ${UPDATE_SHAPES}, ${shapes.join(', ')})`;
}

const exportContext = (columns: string[]) => (e: EventSql) =>
  `CONCAT('{"format":"', ${e.pick('x', ["'csv'", "'csv'", "'xlsx'", "'json'"])}, '","columns":${JSON.stringify(columns)},"filters":{},"q":null,"sort":null,"dir":null}')`;

/** Weighted like real use: edits, status changes and logins; a few bulks; the rest rare. */
const ACTIONS: readonly ActionSpec[] = [
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

interface SeedParams {
  /** The trail's size: sets the time slot of each event. */
  total: number;
  /** Epoch seconds at which event 1's slot starts. */
  startSeconds: number;
  /** id = n + idOffset: the first event written gets the id after the last one there. */
  idOffset: number;
  demo: { min: number; max: number };
  actors: readonly number[];
  roles: readonly number[];
}

/** The statements that write events A…B and their target rows. */
function batchStatements(p: SeedParams, from: number, to: number): string[] {
  const range = p.demo.max - p.demo.min + 1;
  const n = 's.seq';
  const hash = (salt: string) => `CRC32(CONCAT(${n}, '${salt}'))`;
  const unit = (salt: string) => `(${hash(salt)} / 4294967296e0)`;
  const pick = (salt: string, options: readonly string[]) =>
    options.length === 1 ? (options[0] as string) : `ELT(1 + ${hash(salt)} % ${options.length}, ${options.join(', ')})`;
  const pickOther = (unlike: string, salt: string, options: readonly string[]) =>
    `ELT(1 + (${hash(unlike)} % ${options.length} + 1 + ${hash(salt)} % ${options.length - 1}) % ${options.length}, ${options.join(', ')})`;
  /** An index below `size`, small ones far more often (`skew` 2: the first 1 % get 10 %). */
  const skewed = (salt: string, size: number, skew: number) =>
    `LEAST(${size - 1}, FLOOR(${size} * POW(${unit(salt)}, ${skew})))`;
  const staff = (salt: string) => `ELT(1 + ${skewed(salt, p.actors.length, 2)}, ${p.actors.join(', ')})`;

  const total = ACTIONS.reduce((a, s) => a + s.weight, 0);
  // The action's number (1…): INTERVAL finds where one hash falls among the cumulative weights.
  const bounds = ACTIONS.slice(0, -1).map((_, i) => ACTIONS.slice(0, i + 1).reduce((a, s) => a + s.weight, 0));
  const code = `(1 + INTERVAL(${hash('a')} % ${total}, ${bounds.join(', ')}))`;
  /** The value for the event's action: one SQL expression per action, only the chosen one evaluated. */
  const perAction = (value: (s: ActionSpec) => string) => `ELT(${code}, ${ACTIONS.map(value).join(', ')})`;

  const ts = `FROM_UNIXTIME(${p.startSeconds} + (${n} - 1 + ${unit('w')}) * ${(SPAN_SECONDS / p.total).toFixed(6)})`;
  const iso = (datetime: string) => `CONCAT(LEFT(DATE_FORMAT(${datetime}, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')`;
  const knownUser = `${unit('m')} < 0.85`;
  const bulkCount = `LEAST(2 + FLOOR(${BULK_MAX - 2} * POW(${unit('c')}, 4)), ${Math.floor(range / 3)})`;
  const e: EventSql = {
    bulkCount,
    n,
    hash,
    pick,
    pickOther,
    iso,
    ts,
    triedEmail: `IF(${knownUser}, (SELECT u.email FROM users u WHERE u.id = ${staff('q')}), CONCAT('j.doe', ${n} % 1000, '@example.org'))`,
  };

  const doorOf: Record<DoorKind, string> = {
    origin: `CASE WHEN ${hash('v')} % 100 < 85 THEN 'session' WHEN ${hash('v')} % 100 < 97 THEN 'token' ELSE 'cli' END`,
    web: `IF(${hash('v')} % 100 < 88, 'session', 'token')`,
    session: `'session'`,
    request: `'request'`,
    command: `'command'`,
  };
  const door = perAction((s) => doorOf[s.door]);
  // Distinct by construction: a stride of 1–3 over at most range / 3 ids.
  const bulkTarget = (j: string) => `${p.demo.min} + (${hash('s')} + ${j} * (1 + ${hash('d')} % 3)) % ${range}`;
  const targetOf = (kind: TargetKind, j: string): string => {
    switch (kind) {
      case 'one':
        return `${p.demo.min} + ${hash('t')} % ${range}`;
      case 'self':
        return staff('p');
      case 'staffOrNobody':
        return staff('q');
      case 'bulk':
        return bulkTarget(j);
      case 'role':
        return pick('o', p.roles.map(String));
      case 'none':
        return 'NULL';
    }
  };
  const countOf: Record<TargetKind, string> = {
    one: '1',
    self: '1',
    staffOrNobody: `IF(${knownUser}, 1, 0)`,
    bulk: bulkCount,
    role: '1',
    none: '0',
  };
  const targetIds = perAction((s) => {
    if (s.targets === 'none') return `'[]'`;
    if (s.targets === 'bulk') {
      return `(SELECT CONCAT('[', GROUP_CONCAT(${bulkTarget('j.seq')} ORDER BY j.seq SEPARATOR ','), ']') FROM seq_0_to_${BULK_MAX - 1} j WHERE j.seq < ${bulkCount})`;
    }
    const one = `CONCAT('[', ${targetOf(s.targets, '0')}, ']')`;
    return s.targets === 'staffOrNobody' ? `IF(${knownUser}, ${one}, '[]')` : one;
  });
  const context = perAction((s) => (s.context ? s.context(e) : 'NULL'));
  const uuid = `INSERT(INSERT(INSERT(INSERT(MD5(CONCAT('r', ${n})), 21, 0, '-'), 17, 0, '-'), 13, 0, '-'), 9, 0, '-')`;
  // Address k (distinct for each k): mostly IPv4 in a few networks, one in seven IPv6.
  const ipOf = (k: string) =>
    `IF(${k} % 7 = 6, CONCAT('2001:db8:', LOWER(HEX(${k})), '::1'), CONCAT(ELT(1 + ${k} % 5, '10.20', '172.16', '192.168', '203.0', '198.51'), '.', (${k} DIV 5) DIV 200, '.', 1 + (${k} DIV 5) % 200))`;
  const ids = `CAST(${n} AS SIGNED) + ${p.idOffset}`;
  const seq = `seq_${from}_to_${to}`;

  const events = `INSERT INTO audit_logs
      (id, actor_id, action, target_type, target_ids, changes, context, ip, request_id, via, via_name, created_at)
    SELECT ${ids},
      IF(${door} = 'cli', NULL, ${perAction((s) => (s.staff ? staff('p') : 'NULL'))}),
      ${perAction((s) => lit(s.action))},
      ${perAction((s) => (s.targetType === null ? 'NULL' : s.targets === 'staffOrNobody' ? `IF(${knownUser}, 'user', NULL)` : lit(s.targetType ?? 'user')))},
      ${targetIds},
      ${perAction((s) => (s.changes ? s.changes(e) : 'NULL'))},
      IF(${door} = 'cli', IF(${context} IS NULL, '{"source":"cli"}', CONCAT('{"source":"cli",', SUBSTR(${context}, 2))), ${context}),
      IF(${door} IN ('cli', 'command'), NULL, ${ipOf(skewed('i', IPS, 2))}),
      CASE ${door} WHEN 'command' THEN NULL WHEN 'cli' THEN CONCAT('cli-', ${uuid}) ELSE ${uuid} END,
      IF(${door} IN ('session', 'token', 'cli'), ${door}, NULL),
      IF(${door} = 'token', ${pick('k', TOKENS.map(lit))}, NULL),
      ${ts}
    FROM ${seq} s`;
  // Target rows for users only, as recordChange writes them: a role's id is not a user's history.
  const count = perAction((s) => ((s.targetType ?? 'user') === 'user' ? countOf[s.targets] : '0'));
  // Each target row carries its event's time (migration 0009), as recordChange writes it.
  const firstTargets = `INSERT INTO audit_targets (target_id, audit_id, created_at)
    SELECT ${perAction((s) => targetOf(s.targets, '0'))}, ${ids}, ${ts} FROM ${seq} s WHERE ${count} > 0`;
  const bulkCodes = ACTIONS.flatMap((s, i) => (s.targets === 'bulk' ? [i + 1] : []));
  const moreBulkTargets = `INSERT INTO audit_targets (target_id, audit_id, created_at)
    SELECT STRAIGHT_JOIN ${bulkTarget('j.seq')}, ${ids}, ${ts}
      FROM ${seq} s JOIN seq_1_to_${BULK_MAX - 1} j ON j.seq < ${bulkCount}
     WHERE ${code} IN (${bulkCodes.join(', ')})`;
  return [events, firstTargets, moreBulkTargets];
}

type Row = mysql.RowDataPacket;

/** The administrator the bench acts as: the events it writes (its write scenarios) are not the seed's. */
async function adminId(conn: mysql.Connection): Promise<number> {
  const [rows] = await conn.query<Row[]>('SELECT id FROM users WHERE email = ?', [ADMIN_EMAIL]);
  return Number(rows[0]?.id ?? 0);
}

/** Events of the seed: all but those the bench's administrator wrote. */
async function seededEvents(conn: mysql.Connection): Promise<number> {
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

/**
 * Checks that each user event's `target_ids` and its `audit_targets` rows name the same ids (the
 * two are written by different statements): every JSON id has its row, and there are no other rows.
 */
async function checkTargets(conn: mysql.Connection, ids: { from: number; to: number }): Promise<void> {
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
