import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { API_DIR, ApiInstance } from './api-instance.js';
import { LoadBalancer } from './haproxy.js';
import { MariaDbInstance, replicate, waitForCatchUp } from './mariadb.js';
import { freePort, sleep } from './ports.js';
import { bedSecrets, scanBedForSecrets } from './secret-scan.js';

const run = promisify(execFile);

export const ADMIN_EMAIL = 'admin@cluster.test';
export const ADMIN_PASSWORD = 'cluster-admin-pass-42';
export const METRICS_TOKEN = 'cluster-metrics-token-0123456789';
/** Seals webhook signing secrets; every process of the bed has it, as a deployment's would. */
export const SECRETS_KEY = 'Y2x1c3Rlci1iZWQtc2VjcmV0cy1rZXktMzItYnl0ZXM=';
const APP_USER = { user: 'app', password: 'app-db-pass-7', database: 'useradmin' };

export interface ClusterOptions {
  /** Names the temporary directory, for reading logs after a failure. */
  name: string;
  /** Demo users seeded before the instances start. */
  demoUsers?: number;
  /** API instances behind the balancer (default 2). */
  instances?: number;
  /** API processes outside the balancer, as a deployment runs its background workers (default 0). */
  workers?: number;
  env?: Record<string, string>;
}

export interface Cluster {
  dir: string;
  primary: MariaDbInstance;
  replica: MariaDbInstance;
  instances: ApiInstance[];
  /** Outside the balancer: they serve no caller, but run the webhook dispatcher like every instance. */
  workers: ApiInstance[];
  lb: LoadBalancer;
  /** Users not deleted and not administrators at start: what the load may read and switch. */
  demoIds: number[];
  /** Users not deleted at start: the rows of an export. */
  listedUsers: number;
  close(): Promise<void>;
}

/** Runs the compiled CLI against the primary, as an operator would. */
async function cli(args: string[], env: Record<string, string>) {
  await run(process.execPath, ['dist/cli.js', ...args], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
}

/**
 * The scale-out bed: a MariaDB primary and a replica following it (two `mariadbd`, own data
 * directories and ports), the schema migrated and seeded through the CLI, N API processes of the
 * compiled runtime (primary in DATABASE_URL, replica in DATABASE_READ_URLS) and HAProxy in front
 * with health checks on /api/ready. Everything on loopback, in a fresh temporary directory.
 */
export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ua-cluster-${opts.name}-`));
  const primary = await MariaDbInstance.create(dir, 'primary', 1);
  const replica = await MariaDbInstance.create(dir, 'replica', 2);
  const instances: ApiInstance[] = [];
  const workers: ApiInstance[] = [];
  let lb: LoadBalancer | undefined;
  let scanned = false;
  const close = async () => {
    // Before teardown: the logs and the audit trail must not hold a secret.
    const leaks = scanned || !primary.pid ? [] : await scanBedForSecrets(dir, primary);
    scanned = true;
    await lb?.stop();
    await Promise.all([...instances, ...workers].map((i) => i.stop().catch(() => undefined)));
    await Promise.all([primary.stop(), replica.stop()]);
    if (process.env.CLUSTER_KEEP !== '1' && leaks.length === 0) fs.rmSync(dir, { recursive: true, force: true });
    if (leaks.length) throw new Error(`secrets found in ${dir}:\n  ${leaks.join('\n  ')}`);
  };
  for (const secret of [ADMIN_PASSWORD, APP_USER.password, METRICS_TOKEN, SECRETS_KEY]) bedSecrets.add(secret);
  try {
    await Promise.all([primary.start(), replica.start()]);
    await replicate(primary, replica);
    const { user, password, database } = APP_USER;
    await primary.sql(
      `CREATE DATABASE ${database}; CREATE USER '${user}'@'127.0.0.1' IDENTIFIED BY '${password}'; ` +
        `GRANT ALL ON ${database}.* TO '${user}'@'127.0.0.1';`,
    );
    const env = {
      DATABASE_URL: primary.url(user, password, database),
      DATABASE_READ_URLS: replica.url(user, password, database),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      DATA_DIR: path.join(dir, 'data'),
      WEB_DIST_DIR: '/nonexistent',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      TRUST_PROXY: '127.0.0.1',
      SHUTDOWN_DRAIN_SECONDS: '2',
      METRICS_TOKEN,
      SECRETS_KEY,
      ...opts.env,
    };
    await cli(['db:migrate'], env);
    await cli(['db:seed', '--demo', String(opts.demoUsers ?? 2_000)], env);
    await waitForCatchUp(primary, replica);
    const rows = (await primary.sql(
      'SELECT u.id FROM users u WHERE u.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id ' +
        "WHERE ur.user_id = u.id AND r.name = 'admin') ORDER BY u.id",
      database,
    )) as Array<{ id: number }>;
    const names = ['a', 'b', 'c', 'd'].slice(0, opts.instances ?? 2);
    for (const name of names) {
      instances.push(new ApiInstance(name, await freePort(), env, path.join(dir, `api-${name}.log`)));
    }
    for (let w = 1; w <= (opts.workers ?? 0); w++) {
      workers.push(new ApiInstance(`w${w}`, await freePort(), env, path.join(dir, `worker-${w}.log`)));
    }
    await Promise.all([...instances, ...workers].map((i) => i.start()));
    lb = await LoadBalancer.create(
      path.join(dir, 'haproxy'),
      instances.map((i) => ({ name: i.name, port: i.port })),
    );
    await lb.start();
    for (const name of names) await lb.waitForServer(name, 'UP');
    const [count] = (await primary.sql('SELECT COUNT(*) AS n FROM users WHERE deleted_at IS NULL', database)) as Array<{
      n: number;
    }>;
    return {
      dir,
      primary,
      replica,
      instances,
      workers,
      lb,
      demoIds: rows.map((r) => r.id),
      listedUsers: Number(count?.n),
      close,
    };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}

/** How long a sign-in waits for the balancer to have a ready instance again. */
const LOGIN_PATIENCE_MS = 20_000;

/**
 * Signs in through `baseUrl` and returns the session cookie pair. A 503 (no instance ready: a
 * health check missed while the machine is loaded, as in CI beside the browser tests) is retried
 * after its Retry-After, as a client does, for up to LOGIN_PATIENCE_MS; any other answer is final.
 */
export async function login(baseUrl: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
  const until = Date.now() + LOGIN_PATIENCE_MS;
  let res: Response;
  for (;;) {
    res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 503 || Date.now() >= until) break;
    await res.text();
    await sleep(1_000 * Number(res.headers.get('retry-after') ?? 1));
  }
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const sid = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
  if (!sid) throw new Error('no session cookie');
  const pair = sid.split(';')[0] as string;
  bedSecrets.add(pair.slice('sid='.length));
  return pair;
}
