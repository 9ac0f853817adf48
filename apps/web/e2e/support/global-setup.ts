import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ADMIN, CHROMIUM, e2eWorkers, MANAGER, VIEWER, webDir } from './env';
import { startReceiver } from './receiver';

/** One API server of the run, with its own seeded SQLite database. */
export interface E2eServer {
  baseUrl: string;
  /** The server's SQLite file: a test that needs more users than the seed writes them there. */
  sqlitePath: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker (E2E_WORKERS, two by default): a worker's files share its server. */
    servers: E2eServer[];
    /** The SPA build the servers serve (private to this run). */
    distDir: string;
    /** A webhook receiver alive for the whole run, for the screenshot pages' webhook story. */
    storyReceiverUrl: string;
  }
}

const apiDir = path.resolve(webDir, '../api');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForReady(url: string, server: ChildProcess, log: () => string) {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`API exited early:\n${log()}`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`API not ready after 60 s:\n${log()}`);
}

export default async function setup(project: TestProject) {
  if (!fs.existsSync(CHROMIUM)) {
    const line = `SKIPPED: browser tests — ${CHROMIUM} is missing (apt-get install -y chromium).`;
    if (process.env.CI === 'true') throw new Error(`${line} With CI=true this is a failure.`);
    process.stderr.write(`\n\x1b[33m*** ${line} ***\x1b[0m\n\n`);
    project.provide('servers', []);
    project.provide('distDir', '');
    project.provide('storyReceiverUrl', '');
    return;
  }
  // Always test the current code: build the SPA the API will serve. Into a directory of this
  // run's own: a `vite build` elsewhere (apps/web/dist) must not swap the chunks under the tests.
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-e2e-dist-'));
  // NODE_ENV is `test` inside vitest, and vite would pass that on: React's development build,
  // twice the size and slower, instead of what ships.
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', distDir, '--emptyOutDir'], {
    cwd: webDir,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  // As production serves it: precompressed assets, and the API compiled (node dist/main.js).
  execFileSync(process.execPath, ['scripts/compress.mjs', distDir], { cwd: webDir, stdio: 'ignore' });
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: apiDir, stdio: 'inherit' });

  // The browser tests wait far more than they compute (docs/decisions.md, "The CI run's time"):
  // two files at once, each worker on a server and database of its own, so no file sees
  // another's changes mid-run, as when they ran one at a time on one server.
  const workers = e2eWorkers();
  const started = await Promise.all(Array.from({ length: workers }, () => startServer(distDir)));
  const storyReceiver = await startReceiver();
  project.provide(
    'servers',
    started.map(({ baseUrl, sqlitePath }) => ({ baseUrl, sqlitePath })),
  );
  project.provide('distDir', distDir);
  project.provide('storyReceiverUrl', storyReceiver.url);

  return async () => {
    await storyReceiver.close();
    await Promise.all(started.map((server) => server.stop()));
    fs.rmSync(distDir, { recursive: true, force: true });
  };
}

/** Starts the built API on a fresh seeded database with the suite's accounts; resolves once it is ready. */
async function startServer(distDir: string): Promise<E2eServer & { stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-e2e-'));
  const port = await freePort();
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DEMO_USERS: '250',
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: distDir,
    // The suite logs in many times from one address.
    LOGIN_MAX_ATTEMPTS_PER_IP: '10000',
    // Webhook receivers run on 127.0.0.1 beside the tests; a failing delivery is tried twice,
    // a second apart, so the delivery log shows it failed within the test.
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_MAX_ATTEMPTS: '2',
    WEBHOOKS_RETRY_BASE_SECONDS: '1',
    // Background jobs move in small chunks, so a browser test sees one move and can cancel it.
    JOBS_CHUNK_SIZE: '10',
    // The single sign-on test's OpenID provider runs on http://127.0.0.1 beside the tests.
    SSO_ALLOW_INSECURE_ISSUER: 'true',
  };
  let output = '';
  const server = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: apiDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => {
    output += String(d);
  });
  server.stderr?.on('data', (d) => {
    output += String(d);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForReady(baseUrl, server, () => output);
  const createAccount = (who: { email: string; password: string }, name: string, role: string) =>
    execFileSync(
      process.execPath,
      ['dist/cli.js', 'user:create', '--email', who.email, '--name', name, '--password', who.password, '--role', role],
      { cwd: apiDir, env, stdio: 'ignore' },
    );
  createAccount(VIEWER, 'Vera Viewer', 'viewer');
  createAccount(MANAGER, 'Max Manager', 'manager');

  return {
    baseUrl,
    sqlitePath: path.join(dataDir, 'app.sqlite'),
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
