import type mysql from 'mysql2/promise';
import { ADMIN_EMAIL, type ConnectionSettings, connect } from './seed.js';

/**
 * `--attributes`: the six custom attributes of issue 38's performance table, filled for every
 * demo user — department (an enumeration of 20, "Sales" for 1 in 20 users), cost_centre (text),
 * employee_number (unique text), start_date (date), level (number) and manager (another user).
 * Values follow from the user's id, so a re-run or a top-up writes the same ones; multi-row
 * INSERTs of 2 000 users (12 000 values), the next built while the server takes the last.
 */

export const DEPARTMENTS = [
  'Sales',
  'Support',
  'Engineering',
  'Finance',
  'Legal',
  'Marketing',
  'Operations',
  'Research',
  'Security',
  'Design',
  'Product',
  'Procurement',
  'Facilities',
  'Training',
  'Quality',
  'Logistics',
  'Partnerships',
  'Compliance',
  'Analytics',
  'People',
] as const;

export const BENCH_ATTRIBUTES = [
  { key: 'department', label: 'Department', type: 'enum', values: DEPARTMENTS, unique: false },
  { key: 'cost_centre', label: 'Cost centre', type: 'string', values: null, unique: false },
  { key: 'employee_number', label: 'Employee number', type: 'string', values: null, unique: true },
  { key: 'start_date', label: 'Start date', type: 'date', values: null, unique: false },
  { key: 'level', label: 'Level', type: 'number', values: null, unique: false },
  { key: 'manager', label: 'Manager', type: 'user', values: null, unique: false },
] as const;

const USERS_PER_STATEMENT = 2_000;

/** A user's six values (text or number), from its id alone. */
export function benchValues(id: number, ids: { min: number; max: number }): Array<string | number> {
  const spread = (id * 2_654_435_761) % 4_294_967_296;
  // 1 in 20 in Sales; the others spread over the other 19 departments.
  const department = id % 20 === 0 ? 'Sales' : (DEPARTMENTS[1 + (spread % 19)] as string);
  const day = new Date(Date.UTC(2000, 0, 1) + (spread % 9_131) * 86_400_000).toISOString().slice(0, 10);
  const manager = ids.min + ((id * 31) % Math.max(1, ids.max - ids.min + 1));
  return [
    department,
    `CC-${String(spread % 500).padStart(3, '0')}`,
    `E${String(id).padStart(8, '0')}`,
    day,
    1 + (spread % 10),
    manager,
  ];
}

async function definitionIds(conn: mysql.Connection): Promise<number[]> {
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  for (const a of BENCH_ATTRIBUTES) {
    await conn.query(
      // Declared before any value is stored, the triggers keep its list keys from the first value
      // on: ready, as an attribute created through the API is.
      `INSERT IGNORE INTO attributes (\`key\`, label, type, enum_values, required, is_unique, validators, sensitivity, description, enum_keys_ready, created_at, updated_at)
       VALUES (?, ?, ?, ?, 0, ?, '{}', 'none', NULL, 1, ?, ?)`,
      [a.key, a.label, a.type, a.values ? JSON.stringify(a.values) : null, a.unique ? 1 : 0, now, now],
    );
  }
  const [rows] = await conn.query<mysql.RowDataPacket[]>('SELECT id, `key` FROM attributes WHERE `key` IN (?)', [
    BENCH_ATTRIBUTES.map((a) => a.key),
  ]);
  const byKey = new Map(rows.map((r) => [String(r.key), Number(r.id)]));
  return BENCH_ATTRIBUTES.map((a) => byKey.get(a.key) as number);
}

/** Declares the six attributes when missing and fills them for every demo user still without. Returns the seconds taken. */
export async function seedBenchAttributes(settings: ConnectionSettings, log: (s: string) => void): Promise<number> {
  const started = Date.now();
  const conn = await connect(settings);
  try {
    await conn.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
    const attributeIds = await definitionIds(conn);
    const [[range]] = (await conn.query<mysql.RowDataPacket[]>(
      'SELECT MIN(id) AS min, MAX(id) AS max FROM users WHERE email <> ?',
      [ADMIN_EMAIL],
    )) as unknown as [[{ min: number | null; max: number | null }]];
    const ids = { min: Number(range.min ?? 0), max: Number(range.max ?? 0) };
    const [[done]] = (await conn.query<mysql.RowDataPacket[]>(
      'SELECT COALESCE(MAX(user_id), 0) AS last FROM user_attribute_values WHERE attribute_id = ?',
      [attributeIds[0]],
    )) as unknown as [[{ last: number }]];
    const from = Math.max(ids.min, Number(done.last) + 1);
    if (ids.max < from) {
      log('  attributes: every demo user holds the six values already');
      return 0;
    }
    log(`  attributes: filling users ${from.toLocaleString('en')}…${ids.max.toLocaleString('en')}`);
    const build = (start: number) => {
      const rows: string[] = [];
      for (let id = start; id < start + USERS_PER_STATEMENT && id <= ids.max; id++) {
        benchValues(id, ids).forEach((value, i) => {
          const unique = BENCH_ATTRIBUTES[i]?.unique ? conn.escape(String(value)) : 'NULL';
          rows.push(
            typeof value === 'string'
              ? `(${attributeIds[i]},${id},${conn.escape(value)},NULL,${unique})`
              : `(${attributeIds[i]},${id},NULL,${value},${unique})`,
          );
        });
      }
      return `INSERT INTO user_attribute_values (attribute_id, user_id, text_value, number_value, unique_value) VALUES ${rows.join(',')}`;
    };
    let lastLog = Date.now();
    let statement = build(from);
    for (let start = from; start <= ids.max; start += USERS_PER_STATEMENT) {
      const run = conn.query(statement);
      const nextStart = start + USERS_PER_STATEMENT;
      const next = nextStart <= ids.max ? build(nextStart) : null;
      await run;
      if (next) statement = next;
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        log(`  attributes: up to user ${Math.min(nextStart - 1, ids.max).toLocaleString('en')}`);
      }
    }
    // Each value carries its holder's trash state (migration 0035): the deleted demo users' are 0.
    await conn.query(
      'UPDATE user_attribute_values SET user_live = 0 WHERE user_id IN (SELECT id FROM users WHERE deleted_at IS NOT NULL)',
    );
    await conn.query('ANALYZE TABLE user_attribute_values');
    return (Date.now() - started) / 1000;
  } finally {
    await conn.end().catch(() => undefined);
  }
}
