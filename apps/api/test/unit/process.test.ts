import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const apiDir = path.resolve(fileURLToPath(import.meta.url), '../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-proc-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
// The production runtime, as `npm start` builds and runs it (built once for the suite by
// test/build.global-setup.ts): what a bundle could break (paths found from import.meta.url,
// lazily loaded drivers, migrations) is only seen by running it.

const baseEnv = () => ({ PATH: process.env.PATH ?? '', DATA_DIR: dataDir, WEB_DIST_DIR: '/nonexistent' });

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: apiDir,
    env: { ...baseEnv(), DEMO_USERS: '5', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => boolean, ms: number) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the server process (compiled: node dist/main.js)', () => {
  it('stops at start-up with exit code 1 and a clear message when the configuration is bad', async () => {
    const proc = start({ PORT: 'eighty', USERS_ACTIVATION_BLOCK_SELF_DEACTIVATE: 'perhaps' });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toContain('Invalid configuration');
    expect(proc.output()).toContain('PORT');
    expect(proc.output()).toContain(
      'USERS_ACTIVATION_BLOCK_SELF_DEACTIVATE: must be true, false, 1 or 0 (got "perhaps")',
    );
  });

  it('seeds on first start, serves, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const proc = start({ PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD: 'first-start-pw' });
    await waitFor(() => proc.output().includes('is running at'), 20_000);
    const res = await fetch(`http://127.0.0.1:${port}/api/ready`);
    expect(res.status).toBe(200);
    await waitFor(() => proc.output().includes('"msg":"request completed"'), 5_000);
    const lines = proc
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.some((l) => l.msg === 'database seeded')).toBe(true);
    expect(logged.find((l) => l.msg === 'request completed')).toHaveProperty('reqId');
    // No SMTP_URL: said once, at start-up.
    expect(logged.filter((l) => String(l.msg).startsWith('mail is off: SMTP_URL is not set'))).toHaveLength(1);
    expect(proc.output()).not.toContain('first-start-pw');
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dataDir, 'app.sqlite'))).toBe(true);
  });

  it('runs a mail sender with SMTP_URL set, and stops it on SIGTERM', async () => {
    const port = await freePort();
    const proc = start({
      PORT: String(port),
      HOST: '127.0.0.1',
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
      MAIL_FROM: 'no-reply@example.com',
      PUBLIC_URL: 'https://admin.example.com',
    });
    await waitFor(() => proc.output().includes('mail sender started'), 20_000);
    expect(proc.output()).not.toContain('mail is off');
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('"msg":"mail sender stopped"');
  });

  it('runs the compiled CLI against the same database', () => {
    const cli = (...args: string[]) =>
      execFileSync(process.execPath, ['dist/cli.js', ...args], { cwd: apiDir, env: baseEnv(), encoding: 'utf8' });
    expect(cli('db:migrate')).toMatch(/up to date|Applied/i);
    expect(cli('user:create', '--email', ' Ops@Example.COM ', '--name', 'Ops', '--password', 'ops-password-1')).toMatch(
      /Created user #\d+ ops@example\.com\./,
    );
    expect(cli('token:create', '--email', 'ops@example.com', '--name', 'deploy')).toContain('uat_');
  });
});
