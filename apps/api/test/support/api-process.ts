import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { TestDatabaseTarget } from './test-db.js';

/**
 * The API as production runs it (`node dist/main.js`, built by test/build.global-setup.ts), as a
 * process of its own against a test's database: for the tests that kill one (SIGKILL, no
 * shutdown) and check that another finishes its work.
 */

const API_DIR = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ApiProcess {
  child: ChildProcess;
  base: string;
  port: number;
  output(): string;
  /** SIGKILL: no shutdown, nothing finished or released. */
  kill(): Promise<void>;
}

/** Starts the API on a free port; with `ready`, waits until /api/ready answers 200. */
export async function startApiProcess(
  target: TestDatabaseTarget,
  env: Record<string, string>,
  { ready = true } = {},
): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      ...target.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DEMO_USERS: '0',
      WEB_DIST_DIR: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout?.on('data', (c: Buffer) => lines.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => lines.push(c.toString()));
  const api: ApiProcess = {
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => lines.join(''),
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
  if (!ready) return api;
  const end = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited: ${api.output()}`);
    try {
      const res = await fetch(`${api.base}/api/ready`);
      await res.arrayBuffer();
      if (res.status === 200) return api;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      await api.kill();
      throw new Error(`the API did not start: ${api.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
