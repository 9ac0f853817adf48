import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { inject } from 'vitest';
import { ADMIN, webDir } from './env';

/**
 * Mail for the browser tests: a real SMTP server in the test's process, and an API of the test's
 * own that sends to it. The run's shared server has no SMTP_URL (its links are answered, not
 * mailed), so a flow that follows a mail's link starts this one: the same build, its own SQLite
 * file, `PUBLIC_URL` its own address, so the links in mail open in the browser as they would in
 * production.
 */

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface MailBox {
  url: string;
  received: ReceivedMail[];
  /** The first link to `${base}/<kind>/<token>` in a mail to `to`, once one has arrived. */
  linkTo(to: string, kind: 'invite' | 'reset-password', base: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** Quoted-printable soft breaks and `=3D` would hide a link in the raw message: undone here. */
const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');

export async function startMailBox(): Promise<MailBox> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: unfold(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async linkTo(to, kind, base, timeoutMs = 30_000) {
      const pattern = new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${kind}/[A-Za-z0-9_-]+`);
      const end = Date.now() + timeoutMs;
      for (;;) {
        for (const mail of received) {
          const found = mail.to.includes(to.toLowerCase()) ? mail.raw.match(pattern) : null;
          if (found) return found[0];
        }
        if (Date.now() > end) throw new Error(`no ${kind} link mailed to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface MailingApi {
  baseUrl: string;
  close(): Promise<void>;
}

/** This run's API build, on a fresh database, mailing through `mailBox`; the administrator is ADMIN. */
export async function startMailingApi(mailBox: MailBox): Promise<MailingApi> {
  const apiDir = path.resolve(webDir, '../api');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-e2e-mail-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: apiDir,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_USERS: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: inject('distDir'),
      LOGIN_MAX_ATTEMPTS_PER_IP: '10000',
      SMTP_URL: mailBox.url,
      MAIL_FROM: 'Console <no-reply@example.com>',
      PUBLIC_URL: baseUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const end = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the mailing API exited:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/ready`)).ok) return { baseUrl, close };
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      await close();
      throw new Error(`the mailing API did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
