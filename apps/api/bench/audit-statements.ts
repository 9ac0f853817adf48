import { ACTIONS, type ActionSpec, BULK_MAX, type DoorKind, IPS, type TargetKind } from './audit-actions.js';
import { type EventSql, lit, TOKENS } from './audit-event-sql.js';

/** The trail spans the 3 years before the seed. */
export const SPAN_SECONDS = 3 * 365 * 86_400;

export interface SeedParams {
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
export function batchStatements(p: SeedParams, from: number, to: number): string[] {
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
