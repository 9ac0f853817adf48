import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { createApiToken } from '../src/auth/api-tokens.js';
import { UNUSABLE_PASSWORD } from '../src/auth/password.js';
import { type Database, openDatabase, parseMysqlUrl } from '../src/db/database.js';
import { migrate } from '../src/db/migrations/migrator.js';
import { seedAdministrator } from '../src/seed/base.seeder.js';
import { demoUser } from '../src/seed/demo-data.js';
import { rebuildTriggerTables, withIndexesBuiltAfter, withoutTriggers } from './bulk-load.js';

export const ADMIN_EMAIL = 'admin@example.com';
const ROWS_PER_STATEMENT = 5_000;
/** A seed that has not finished after this long is stopped: something is wrong with the server. */
const SEED_TIME_LIMIT_MS = 60 * 60_000;

export interface ConnectionSettings {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export function connectionSettings(url: string): ConnectionSettings {
  const p = parseMysqlUrl(url);
  return { host: p.host, port: p.port, user: p.username, password: p.password, database: p.database };
}

/** A mysql2 connection with the settings the API's pool uses (UTC, utf8mb4). */
export function connect(settings: ConnectionSettings, withDatabase = true) {
  return mysql.createConnection({
    host: settings.host,
    port: settings.port,
    user: settings.user,
    password: settings.password,
    ...(withDatabase ? { database: settings.database } : {}),
    charset: 'utf8mb4',
    timezone: '+00:00',
    supportBigNumbers: true,
    bigNumberStrings: false,
    connectTimeout: 10_000,
  });
}

const quoteIdent = (s: string) => `\`${s.replace(/`/g, '``')}\``;

/**
 * Creates the database when missing. Without `reuse` an existing one is dropped first, but only
 * when its name says it is a benchmark database: the harness never wipes anything else.
 */
export async function ensureDatabase(settings: ConnectionSettings, fresh: boolean, log: (s: string) => void) {
  const conn = await connect(settings, false);
  try {
    const [rows] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
      [settings.database],
    );
    const exists = rows.length > 0;
    if (exists && fresh) {
      if (!/bench/i.test(settings.database)) {
        throw new Error(
          `Refusing to drop "${settings.database}": only databases whose name contains "bench" are reseeded. ` +
            'Use --reuse to run against it as it is.',
        );
      }
      log(`dropping database ${settings.database}`);
      await conn.query(`DROP DATABASE ${quoteIdent(settings.database)}`);
    }
    if (!exists || fresh) {
      await conn.query(
        `CREATE DATABASE ${quoteIdent(settings.database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
      );
    }
  } finally {
    await conn.end();
  }
}

/** Migrates and seeds permissions, roles and the administrator (idempotent). */
export async function prepareSchema(url: string): Promise<Database> {
  const db = await openDatabase({ url, poolMax: 2 });
  await migrate(db);
  await seedAdministrator(db, {
    adminEmail: ADMIN_EMAIL,
    adminPassword: randomBytes(18).toString('base64url'),
    adminRoleName: 'admin',
  });
  return db;
}

/** Users other than the administrator, deleted ones included. */
export async function demoUserCount(settings: ConnectionSettings): Promise<number> {
  const conn = await connect(settings);
  try {
    const [rows] = await conn.query<mysql.RowDataPacket[]>('SELECT total + trashed AS n FROM user_stats WHERE id = 1');
    const n = Number(rows[0]?.n ?? 0);
    const [admin] = await conn.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM users WHERE email = ?', [
      ADMIN_EMAIL,
    ]);
    return n - Number(admin[0]?.n ?? 0);
  } finally {
    await conn.end();
  }
}

const sqlDate = (d: Date) => `'${d.toISOString().slice(0, 23).replace('T', ' ')}'`;

/** One multi-row INSERT of demo users and one of their roles (null when none holds a role). */
interface DemoBatch {
  size: number;
  users: string;
  links: string | null;
}

/**
 * The statements that add `size` demo users: demo indices from `firstIndex`, ids from `firstId`
 * (consecutive), their roles by name through `roleId`.
 */
function demoBatch(
  conn: mysql.Connection,
  roleId: ReadonlyMap<string, number>,
  firstIndex: number,
  firstId: number,
  size: number,
): DemoBatch {
  const hash = conn.escape(UNUSABLE_PASSWORD);
  const users: string[] = [];
  const links: string[] = [];
  for (let k = 0; k < size; k++) {
    const demo = demoUser(firstIndex + k);
    const id = firstId + k;
    const created = sqlDate(demo.created_at);
    users.push(
      `(${id},${conn.escape(demo.name)},${conn.escape(demo.email)},${hash},${demo.is_active ? 1 : 0},0,${created},${
        demo.deleted_at ? sqlDate(demo.deleted_at) : created
      },${demo.deleted_at ? sqlDate(demo.deleted_at) : 'NULL'})`,
    );
    for (const role of demo.roles) {
      const rid = roleId.get(role);
      if (rid) links.push(`(${id},${rid})`);
    }
  }
  return {
    size,
    users: `INSERT INTO users (id, name, email, password_hash, is_active, lock_version, created_at, updated_at, deleted_at) VALUES ${users.join(',')}`,
    links: links.length ? `INSERT INTO user_roles (user_id, role_id) VALUES ${links.join(',')}` : null,
  };
}

/**
 * Appends `count` deterministic demo users (the rows of `demoUser`, indices continuing after the
 * rows already there) with their roles, in multi-row INSERTs of 5 000 rows, the next built while
 * the server runs the previous one.
 *
 * - Into a database holding no demo user yet, in bulk (`bulk-load.ts`): the triggers on `users`
 *   and `user_roles` are dropped, both tables emptied (the administrator kept aside) and refilled
 *   in id order with the users' secondary indexes dropped and built after by sorting; the tables
 *   the triggers keep (search grams, list keys per role, member counts, `user_stats`) are then
 *   rebuilt from them, and the triggers put back.
 * - On top of earlier demo users, one transaction per statement, the triggers keeping the rest.
 *
 * Returns the seconds taken.
 */
export async function bulkSeedUsers(
  settings: ConnectionSettings,
  count: number,
  log: (s: string) => void,
): Promise<number> {
  const started = Date.now();
  if (count <= 0) return 0;
  const conn = await connect(settings);
  try {
    // The rows are unique by construction (e-mails carry the index, ids are assigned here).
    await conn.query("SET SESSION unique_checks = 0, foreign_key_checks = 0, time_zone = '+00:00'");
    const [roleRows] = await conn.query<mysql.RowDataPacket[]>('SELECT id, name FROM roles');
    const roleId = new Map(roleRows.map((r) => [String(r.name), Number(r.id)]));
    const [[state]] = (await conn.query<mysql.RowDataPacket[]>(
      'SELECT COALESCE(MAX(id), 0) AS maxId, COUNT(*) AS n FROM users',
    )) as unknown as [[{ maxId: number; n: number }]];
    const firstId = Number(state.maxId) + 1;
    // Same convention as the demo seeder: demo indices continue after the rows already there.
    const offset = Number(state.n);
    const fresh = !(await holdsDemoUsers(conn));

    /** Runs every batch in order; `each` sends one (its own transaction, or part of the caller's). */
    const appendAll = async (each: (batch: DemoBatch) => Promise<void>) => {
      let done = 0;
      let lastLog = Date.now();
      let batch = demoBatch(conn, roleId, offset, firstId, Math.min(ROWS_PER_STATEMENT, count));
      while (done < count) {
        if (Date.now() - started > SEED_TIME_LIMIT_MS) throw new Error('seeding took more than an hour: stopped');
        const run = each(batch);
        const nextStart = done + batch.size;
        // Build the next statement while the server works on this one.
        const next =
          nextStart < count
            ? demoBatch(
                conn,
                roleId,
                offset + nextStart,
                firstId + nextStart,
                Math.min(ROWS_PER_STATEMENT, count - nextStart),
              )
            : null;
        await run;
        done = nextStart;
        if (next) batch = next;
        if (Date.now() - lastLog > 10_000 || done === count) {
          lastLog = Date.now();
          const rate = done / ((Date.now() - started) / 1000);
          log(`  seeded ${done.toLocaleString('en')} / ${count.toLocaleString('en')} users (${Math.round(rate)}/s)`);
        }
      }
    };
    const send = async (batch: DemoBatch) => {
      await conn.query(batch.users);
      if (batch.links) await conn.query(batch.links);
    };

    if (fresh) {
      await withoutTriggers(conn, async () => {
        const columns = await storedColumns(conn, 'users');
        await conn.query(`CREATE TEMPORARY TABLE bulk_users_kept SELECT ${columns} FROM users`);
        await conn.query('CREATE TEMPORARY TABLE bulk_roles_kept SELECT user_id, role_id FROM user_roles');
        await conn.query('TRUNCATE TABLE user_roles');
        await conn.query('TRUNCATE TABLE users');
        await withIndexesBuiltAfter(conn, 'users', log, async () => {
          await conn.query('START TRANSACTION');
          await conn.query(`INSERT INTO users (${columns}) SELECT ${columns} FROM bulk_users_kept`);
          await conn.query('INSERT INTO user_roles (user_id, role_id) SELECT user_id, role_id FROM bulk_roles_kept');
          await appendAll(send);
          await conn.query('COMMIT');
        });
        await conn.query('DROP TEMPORARY TABLE bulk_users_kept, bulk_roles_kept');
        const rebuilt = await rebuildTriggerTables(conn, log);
        log(
          `  rebuilt from them: search grams ${rebuilt.grams.toFixed(1)} s, list keys per role ${rebuilt.roleKeys.toFixed(1)} s, counters ${rebuilt.counters.toFixed(1)} s`,
        );
      });
    } else {
      await appendAll(async (batch) => {
        await conn.query('START TRANSACTION');
        await send(batch);
        await conn.query('COMMIT');
      });
    }
    await conn.query('ANALYZE TABLE users, user_roles, user_role_keys, user_search_grams');
    return (Date.now() - started) / 1000;
  } finally {
    await conn.end().catch(() => undefined);
  }
}

/** Whether any demo user is there yet (their e-mails are on example.com; the administrator's is too). */
async function holdsDemoUsers(conn: mysql.Connection): Promise<boolean> {
  const [[row]] = (await conn.query(
    "SELECT EXISTS (SELECT 1 FROM users WHERE email LIKE '%@example.com' AND email <> ?) AS held",
    [ADMIN_EMAIL],
  )) as unknown as [[{ held: number }]];
  return Number(row.held) === 1;
}

/** A table's columns that hold values (not generated ones), for INSERT … SELECT. */
async function storedColumns(conn: mysql.Connection, table: string): Promise<string> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    `SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND EXTRA NOT LIKE '%GENERATED%' ORDER BY ORDINAL_POSITION`,
    [table],
  );
  return rows.map((r) => `\`${String(r.name)}\``).join(', ');
}

/** A day-long API token of the seeded administrator, for the harness's requests. */
export async function adminToken(db: Database, name: string): Promise<{ id: number; token: string }> {
  const admin = await db.models.User.findOne({ where: { email: ADMIN_EMAIL }, paranoid: false });
  if (!admin) throw new Error(`no administrator ${ADMIN_EMAIL}`);
  return createApiToken(db, admin.id, name, new Date(Date.now() + 86_400_000));
}

/** A bench section's database, ready to run the API on, and a token of its administrator. */
export interface BenchDatabase {
  url: string;
  settings: ConnectionSettings;
  token: { id: number; token: string };
}

/**
 * Opens the database a bench section runs on, as each does: `url`, or the bench database (its
 * smoke one for `smoke`), created when missing and reseeded unless `reuse`; migrated; holding at
 * least `users` demo users; and a day-long token of its administrator named `tokenName`. Its pool
 * is closed again: the section's API opens its own.
 */
export async function benchDatabase(opts: {
  url: string | undefined;
  smoke: boolean;
  reuse: boolean;
  users: number;
  tokenName: string;
  log: (s: string) => void;
}): Promise<BenchDatabase> {
  const url = opts.url ?? `mysql://root@127.0.0.1:3306/${opts.smoke ? 'ua_bench_smoke' : 'ua_bench'}`;
  const settings = connectionSettings(url);
  await ensureDatabase(settings, !opts.reuse, opts.log);
  const db = await prepareSchema(url);
  try {
    const existing = await demoUserCount(settings);
    if (existing < opts.users) {
      opts.log(`seeding ${(opts.users - existing).toLocaleString('en')} users`);
      await bulkSeedUsers(settings, opts.users - existing, opts.log);
    }
    return { url, settings, token: await adminToken(db, opts.tokenName) };
  } finally {
    await db.close();
  }
}
