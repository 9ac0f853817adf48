import fs from 'node:fs';
import path from 'node:path';
import { type Options, QueryTypes, Sequelize } from 'sequelize';
import type sqlite3 from 'sqlite3';
import type { Dialect } from './dialect.js';
import { defineModels, type Models } from './models/index.js';
import { type ReplicaEvents, routeReads } from './replica-routing.js';
import { limitStatements, type StatementConnection } from './statement-timeout.js';

export interface DatabaseOptions {
  /** mysql://… or mariadb://…; absent → embedded SQLite at `sqlitePath`. */
  url?: string | undefined;
  readUrls?: string[];
  sqlitePath?: string;
  poolMax?: number;
  logSql?: (sql: string) => void;
  /**
   * Client-side limit on each MySQL statement (the server process sets it; the CLI, whose
   * migrations may run for minutes, does not). Absent: no limit.
   */
  statementTimeoutMs?: number;
  /** Told when a replica fails (reads go to the primary) and when replicas answer again. */
  replicaEvents?: ReplicaEvents;
}

interface ReplicaCheck {
  /** host:port, never credentials. */
  name: string;
  ok: boolean;
}

export interface Database {
  sequelize: Sequelize;
  dialect: Dialect;
  models: Models;
  /** Human-readable target for logs, without credentials. */
  describe: string;
  /** The primary answers a trivial query. */
  ping(): Promise<boolean>;
  /** Each replica of DATABASE_READ_URLS, asked over its own short-lived connection. */
  checkReplicas(): Promise<ReplicaCheck[]>;
  close(): Promise<void>;
}

interface ConnectionParts {
  host: string;
  port: number;
  username: string;
  password: string;
  database: string;
}

export function parseMysqlUrl(url: string): ConnectionParts {
  const u = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 3306,
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.replace(/^\//, '')),
  };
}

/** The callback API of a mysql2 connection, as Sequelize hands it to `afterConnect`. */
interface RawConnection {
  query(sql: string, cb: (err: Error | null) => void): void;
}

/**
 * How mysql2 reads values: DATETIME as the UTC instant it is stored as (the session runs at
 * +00:00; Sequelize hands mysql2 that offset, which its row parser applies digit by digit),
 * DATE as its text, every other type as mysql2 reads it. These are mysql2's own options, not a
 * `typeCast` function: with a function (Sequelize's by default, which parses dates through
 * moment-timezone), mysql2 calls it for every value with a fresh closure, which at a million
 * rows was a tenth of an export's CPU (docs/decisions.md, "Exports: values as mysql2 reads them").
 */
const NATIVE_CASTS = { typeCast: true, dateStrings: ['DATE'] } as const;

function mysqlOptions(opts: DatabaseOptions, mysql2: object): Options {
  const write = parseMysqlUrl(opts.url as string);
  const base: Options = {
    dialect: 'mysql',
    dialectModule: mysql2,
    database: write.database,
    // Timestamps are stored and read as UTC whatever the server's time zone.
    timezone: '+00:00',
    dialectOptions: { charset: 'utf8mb4', supportBigNumbers: true, bigNumberStrings: false, ...NATIVE_CASTS },
    define: { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci' },
    pool: { max: opts.poolMax ?? 10, min: 0, acquire: 10_000, idle: 10_000 },
    logging: opts.logSql ?? false,
    hooks: {
      // Writers read what others committed (READ COMMITTED: the rules read under row locks and
      // take no gap locks). Set once per connection instead of by a statement before every
      // transaction: one round trip less per write.
      afterConnect: async (connection: unknown) => {
        await new Promise<void>((resolve, reject) =>
          (connection as RawConnection).query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', (err) =>
            err ? reject(err) : resolve(),
          ),
        );
        // An export reads a batch's values of an attribute as one text (export.attribute-values.ts):
        // 1 000 values of up to 255 characters of up to four bytes come near MariaDB's default
        // limit of 1 MB (MySQL's is 1 KB), past which the text is cut short. 16 MB holds the 10 000
        // users that code reads at most.
        await new Promise<void>((resolve, reject) =>
          (connection as RawConnection).query('SET SESSION group_concat_max_len = 16777216', (err) =>
            err ? reject(err) : resolve(),
          ),
        );
        if (opts.statementTimeoutMs) limitStatements(connection as StatementConnection, opts.statementTimeoutMs);
      },
    },
  };
  const readUrls = opts.readUrls ?? [];
  if (readUrls.length === 0) return { ...base, ...write };
  return {
    ...base,
    replication: {
      write,
      read: readUrls.map((r) => {
        const { database: _db, ...rest } = parseMysqlUrl(r);
        return rest;
      }),
    },
  };
}

function sqliteOptions(opts: DatabaseOptions, sqlite: typeof sqlite3): Options {
  const storage = opts.sqlitePath ?? ':memory:';
  if (storage !== ':memory:') fs.mkdirSync(path.dirname(storage), { recursive: true });
  return {
    dialect: 'sqlite',
    dialectModule: sqlite,
    storage,
    logging: opts.logSql ?? false,
    hooks: {
      // Sequelize opens one SQLite connection per transaction: each must wait for the write
      // lock instead of failing at once with SQLITE_BUSY.
      afterConnect: async (connection: unknown) => {
        const db = connection as sqlite3.Database;
        db.configure('busyTimeout', 10_000);
      },
    },
  };
}

/** How long a readiness check waits for a replica before calling it down. */
const REPLICA_CHECK_TIMEOUT_MS = 2_000;

type Mysql2 = typeof import('mysql2');

async function checkReplica(mysql2: Mysql2, url: string): Promise<ReplicaCheck> {
  const { host, port, username, password } = parseMysqlUrl(url);
  const name = `${host}:${port}`;
  const connection = mysql2.createConnection({
    host,
    port,
    user: username,
    password,
    connectTimeout: REPLICA_CHECK_TIMEOUT_MS,
  });
  const ok = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), REPLICA_CHECK_TIMEOUT_MS);
    connection.on('error', () => resolve(false));
    connection.query('SELECT 1', (err) => {
      clearTimeout(timer);
      resolve(!err);
    });
  });
  connection.destroy();
  return { name, ok };
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  const dialect: Dialect = opts.url ? 'mysql' : 'sqlite';
  // Only the engine in use is loaded: the other driver would only take memory (mysql2 ~16 MB).
  const mysql2 = dialect === 'mysql' ? (await import('mysql2')).default : undefined;
  const sequelize = new Sequelize(
    mysql2 ? mysqlOptions(opts, mysql2) : sqliteOptions(opts, (await import('sqlite3')).default),
  );
  const readUrls = dialect === 'mysql' ? (opts.readUrls ?? []) : [];
  if (readUrls.length > 0) {
    routeReads(sequelize, opts.replicaEvents ?? { down: () => undefined, up: () => undefined });
  }
  if (dialect === 'sqlite') {
    // WAL lets readers proceed while a writer holds the lock; it is a property of the file.
    await sequelize.query('PRAGMA journal_mode = WAL');
    await sequelize.query('PRAGMA synchronous = NORMAL');
  }
  const models = defineModels(sequelize, dialect);
  const describe =
    dialect === 'mysql'
      ? (() => {
          const p = parseMysqlUrl(opts.url as string);
          return `mysql://${p.host}:${p.port}/${p.database}`;
        })()
      : `sqlite:${opts.sqlitePath ?? ':memory:'}`;
  return {
    sequelize,
    dialect,
    models,
    describe,
    async ping() {
      try {
        // The primary: with replicas, Sequelize would send a plain SELECT to one of them, and an
        // instance that cannot write is not ready whatever its replicas say.
        await sequelize.query('SELECT 1 AS ok', { type: QueryTypes.SELECT, useMaster: true });
        return true;
      } catch {
        return false;
      }
    },
    checkReplicas: () => (mysql2 ? Promise.all(readUrls.map((url) => checkReplica(mysql2, url))) : Promise.resolve([])),
    close: () => sequelize.close(),
  };
}
