import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { freePort } from './api-process.js';

/**
 * The mail tests' SMTP server: smtp-receiver-process.ts run as a child process on a loopback
 * port, so a test can leave it down, kill it mid-send (SIGKILL) and start it again on the same
 * port. What it received is read back from its JSON lines and parsed with mailparser.
 */

export type ReceiverMode = 'accept' | 'stall' | 'tempfail' | 'reject';

export interface ReceivedMail {
  kind: 'accepted' | 'stalled' | 'refused';
  at: number;
  mailFrom: string | null;
  rcptTo: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpReceiver {
  port: number;
  /** The SMTP_URL that reaches it. */
  url: string;
  /** Starts the server process (again) on its port; resolves once it takes connections. */
  start(mode?: ReceiverMode): Promise<void>;
  /** SIGKILL: whatever was being received is cut off. */
  kill(): Promise<void>;
  /** Everything written down so far, of `kind` when given. */
  read(kind?: ReceivedMail['kind']): Promise<ReceivedMail[]>;
  /** Resolves with the messages of `kind` once there are `count`. */
  waitFor(count: number, kind?: ReceivedMail['kind'], timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Forgets what was received so far. */
  clear(): void;
  /** Stops the process and removes what it wrote. */
  close(): Promise<void>;
}

const SCRIPT = path.resolve(import.meta.dirname, 'smtp-receiver-process.ts');

/** A receiver on a free port, not yet started (`start()`), so a test can begin with the server down. */
export async function smtpReceiver(): Promise<SmtpReceiver> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-smtp-'));
  const out = path.join(dir, 'received.jsonl');
  fs.writeFileSync(out, '');
  let child: ChildProcess | null = null;

  const kill = () =>
    new Promise<void>((resolve) => {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return resolve();
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });

  const read = async (kind?: ReceivedMail['kind']) => {
    // Only whole lines: the receiver may be writing the last one as it is read.
    const lines = fs.readFileSync(out, 'utf8').split('\n').slice(0, -1).filter(Boolean);
    const entries = lines.map((l) => JSON.parse(l) as Omit<ReceivedMail, 'parsed'>);
    const wanted = kind ? entries.filter((e) => e.kind === kind) : entries;
    return Promise.all(wanted.map(async (e) => ({ ...e, parsed: await simpleParser(e.raw) })));
  };

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    async start(mode = 'accept') {
      await kill();
      const started = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
        env: {
          PATH: process.env.PATH ?? '',
          RECEIVER_PORT: String(port),
          RECEIVER_OUT: out,
          RECEIVER_MODE: mode,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the SMTP receiver did not start: ${output}`)), 20_000);
        started.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('listening')) {
            clearTimeout(timer);
            resolve();
          }
        });
        started.stderr?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        started.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`the SMTP receiver exited (${code}): ${output}`));
        });
      });
    },
    kill,
    read,
    async waitFor(count, kind = 'accepted', timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = await read(kind);
        if (found.length >= count) return found;
        if (Date.now() > end) throw new Error(`waited ${timeoutMs} ms for ${count} ${kind} mail, got ${found.length}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    clear() {
      fs.writeFileSync(out, '');
    },
    async close() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
