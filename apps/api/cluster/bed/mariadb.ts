import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { freePort, sleep, waitFor } from './ports.js';

const run = promisify(execFile);
const MARIADBD = '/usr/sbin/mariadbd';

/**
 * One `mariadbd` of the test bed: its own data directory and loopback port, never the machine's
 * shared server. Durable settings (the defaults plus sync_binlog=1), so a killed primary loses no
 * committed transaction and its replica never sees one the primary forgot.
 */
export class MariaDbInstance {
  private child: ChildProcess | undefined;
  readonly dataDir: string;
  readonly tmpDir: string;

  private constructor(
    readonly name: string,
    readonly dir: string,
    readonly port: number,
    readonly serverId: number,
  ) {
    this.dataDir = path.join(dir, 'data');
    this.tmpDir = path.join(dir, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  static async create(root: string, name: string, serverId: number): Promise<MariaDbInstance> {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    const instance = new MariaDbInstance(name, dir, await freePort(), serverId);
    await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${instance.dataDir}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ]);
    return instance;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the server and waits until it answers. */
  async start(): Promise<number> {
    const log = fs.openSync(path.join(this.dir, 'server.log'), 'a');
    this.child = spawn(
      MARIADBD,
      [
        '--no-defaults',
        '--user=root',
        `--datadir=${this.dataDir}`,
        `--port=${this.port}`,
        '--bind-address=127.0.0.1',
        `--socket=${path.join(this.dir, 'mysqld.sock')}`,
        `--pid-file=${path.join(this.dir, 'mysqld.pid')}`,
        // A temporary directory of its own: at start, mariadbd deletes every `#sql*` file in its
        // tmpdir as left over from a crash, and in the machine's /tmp those are the live temporary
        // tables of the machine's own server (a bench smoke's UPDATE failed with "Error on delete
        // of '/tmp/#sql-update-…MAI'" while a scenario restarted its replica).
        `--tmpdir=${this.tmpDir}`,
        `--server-id=${this.serverId}`,
        '--log-bin=binlog',
        '--binlog-format=ROW',
        '--sync-binlog=1',
        // The schema's triggers (user_stats) are created by the application's account, which has
        // no SUPER: with a binary log, MariaDB refuses that unless told the triggers are safe.
        // docs/operations.md says the same for production.
        '--log-bin-trust-function-creators=1',
        '--skip-name-resolve',
        '--innodb-buffer-pool-size=128M',
        '--max-connections=300',
        ...(this.serverId > 1 ? ['--read-only=ON', '--relay-log=relay'] : []),
      ],
      { stdio: ['ignore', log, log] },
    );
    fs.closeSync(log);
    return waitFor(`${this.name} to accept connections`, async () => {
      const c = await this.connect();
      await c.end();
      return true;
    });
  }

  /** A root connection for the bed's own statements. */
  connect(database?: string) {
    return mysql.createConnection({
      host: '127.0.0.1',
      port: this.port,
      user: 'root',
      ...(database ? { database } : {}),
      connectTimeout: 2_000,
      multipleStatements: true,
    });
  }

  async sql(statement: string, database?: string): Promise<unknown[]> {
    const c = await this.connect(database);
    try {
      const [rows] = await c.query(statement);
      return Array.isArray(rows) ? rows : [rows];
    } finally {
      await c.end();
    }
  }

  /** Kills the server (SIGKILL: a crash, not a clean stop) and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }

  /** A clean stop (SIGTERM), for teardown. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(20_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
    this.child = undefined;
  }

  url(user: string, password: string, database: string): string {
    return `mysql://${user}:${password}@127.0.0.1:${this.port}/${database}`;
  }
}

/** Makes `replica` follow `primary` from the primary's first transaction (both fresh). */
export async function replicate(primary: MariaDbInstance, replica: MariaDbInstance): Promise<void> {
  await primary.sql(
    "CREATE USER 'repl'@'127.0.0.1' IDENTIFIED BY 'repl'; GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1';",
  );
  await replica.sql(
    `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.port}, MASTER_USER='repl', ` +
      "MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1; START SLAVE;",
  );
}

interface ReplicaStatus {
  Slave_IO_Running: string;
  Slave_SQL_Running: string;
  Seconds_Behind_Master: number | null;
  Gtid_IO_Pos: string;
}

export async function replicaStatus(replica: MariaDbInstance): Promise<ReplicaStatus> {
  const [row] = (await replica.sql('SHOW SLAVE STATUS')) as ReplicaStatus[];
  if (!row) throw new Error('the replica has no replication configured');
  return row;
}

/** Waits until the replica has applied everything the primary has written so far. */
export async function waitForCatchUp(primary: MariaDbInstance, replica: MariaDbInstance, timeoutMs = 30_000) {
  const [pos] = (await primary.sql('SELECT @@gtid_binlog_pos AS pos')) as Array<{ pos: string }>;
  const target = pos?.pos ?? '';
  return waitFor(
    'the replica to catch up',
    async () => {
      const [row] = (await replica.sql(`SELECT MASTER_GTID_WAIT('${target}', 0.5) AS r`)) as Array<{ r: number }>;
      return row?.r === 0;
    },
    timeoutMs,
  );
}
