import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../cluster/bed/ports.js';

/**
 * The invitation benchmark's SMTP server: the tests' receiver (test/support/smtp-receiver-process.ts,
 * the `smtp-server` package) as a process of its own on loopback, so its CPU and memory are not
 * the API's. The bench reads back only who each message was for, never parses the bodies.
 */
export interface SmtpSink {
  url: string;
  /** How many messages arrived for each recipient so far. */
  byRecipient(): Map<string, number>;
  close(): Promise<void>;
}

const SCRIPT = path.resolve(fileURLToPath(import.meta.url), '../../test/support/smtp-receiver-process.ts');

export async function startSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-bench-smtp-'));
  const out = path.join(dir, 'received.jsonl');
  fs.writeFileSync(out, '');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { PATH: process.env.PATH ?? '', RECEIVER_PORT: String(port), RECEIVER_OUT: out, RECEIVER_MODE: 'accept' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the SMTP receiver exited (${code}) while starting`)));
  });
  // Read incrementally: the file grows by a few kilobytes per message.
  let offset = 0;
  let partial = '';
  const counts = new Map<string, number>();
  return {
    url: `smtp://127.0.0.1:${port}`,
    byRecipient() {
      const size = fs.statSync(out).size;
      if (size > offset) {
        const fd = fs.openSync(out, 'r');
        const buffer = Buffer.alloc(size - offset);
        fs.readSync(fd, buffer, 0, buffer.length, offset);
        fs.closeSync(fd);
        offset = size;
        const lines = (partial + buffer.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (!line) continue;
          const entry = JSON.parse(line) as { kind: string; rcptTo: string[] };
          if (entry.kind !== 'accepted') continue;
          for (const to of entry.rcptTo) counts.set(to, (counts.get(to) ?? 0) + 1);
        }
      }
      return counts;
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
