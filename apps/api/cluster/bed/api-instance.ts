import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sleep, waitFor } from './ports.js';

export const API_DIR = path.resolve(fileURLToPath(import.meta.url), '../../..');
/** The compiled runtime, as `npm start` runs it (built once by the bed's global setup). */
const MAIN = path.join(API_DIR, 'dist/main.js');

export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [key: string]: unknown;
}

/** One API process of the bed: the compiled runtime on its own loopback port. */
export class ApiInstance {
  private child: ChildProcess | undefined;
  /** Every structured log line this instance wrote, across restarts. */
  readonly logs: LogLine[] = [];
  readonly stderr: string[] = [];
  exits: Array<{ code: number | null; signal: string | null }> = [];

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process and waits until /api/ready answers 200; returns how long that took. */
  async start(): Promise<number> {
    const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', ...this.env, HOST: '127.0.0.1', PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const file = fs.createWriteStream(this.logFile, { flags: 'a' });
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      file.write(`${line}\n`);
      try {
        this.logs.push(JSON.parse(line) as LogLine);
      } catch {
        // Not a log line (none expected): kept in the file only.
      }
    });
    readline.createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      file.write(`[stderr] ${line}\n`);
      this.stderr.push(line);
    });
    child.once('exit', (code, signal) => {
      this.exits.push({ code, signal });
      file.end();
    });
    return waitFor(
      `${this.name} to be ready`,
      async () => {
        if (child.exitCode !== null) throw new Error(`${this.name} exited: ${this.stderr.join('\n')}`);
        const res = await fetch(`${this.baseUrl}/api/ready`);
        await res.arrayBuffer();
        return res.status === 200;
      },
      60_000,
    );
  }

  /** SIGTERM and wait for the process to finish draining and exit; returns its exit code. */
  async stop(timeoutMs = 60_000): Promise<number | null> {
    const child = this.child;
    if (!child || !this.running) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(timeoutMs).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      child.kill('SIGKILL');
      throw new Error(`${this.name} did not stop within ${timeoutMs} ms of SIGTERM`);
    }
    return code;
  }

  /** Kills the process without warning (SIGKILL: no drain, nothing recorded) and waits for it to be gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  /** Resident memory of the process, from /proc (Linux), in bytes. */
  rssBytes(): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return Number(kb) * 1024;
  }
}
