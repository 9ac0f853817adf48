import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../cluster/bed/ports.js';
import { listensOn } from './listening.js';

const API_DIR = path.resolve(fileURLToPath(import.meta.url), '../..');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

/** kB values of /proc/<pid>/status (VmRSS, VmHWM). */
function procStatus(pid: number): { rssKb: number; hwmKb: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(text)?.[1] ?? Number.NaN);
    return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
  } catch {
    return null;
  }
}

export interface ApiServer {
  baseUrl: string;
  pid: number;
  /** Starts a new peak-RSS window (resets the kernel's VmHWM when allowed, and the poller's max). */
  resetPeak(): void;
  /** Peak RSS in MB since the last resetPeak(): the larger of VmHWM and the 50 ms poller's max. */
  peakRssMb(): number;
  rssMb(): number;
  /** RSS once the idle process has settled (V8 shrinks the heap it grew while starting). */
  settledRssMb(minSeconds: number): Promise<number>;
  /** The last lines the server wrote on stderr/stdout (for error messages). */
  output(): string;
  stop(): Promise<void>;
}

let built = false;

/**
 * The production runtime, built once per run as `npm start` builds dist/, but into a folder of the
 * bench's own: `npm test` runs the benchmark smokes beside the browser tests, whose server runs
 * from dist/.
 */
const BUILD_DIR = '.bench-build';

function buildOnce() {
  if (built) return;
  execFileSync(process.execPath, ['scripts/build.mjs', BUILD_DIR], { cwd: API_DIR, stdio: 'inherit' });
  built = true;
}

/** The free port handed to the API was taken by another process before the API could bind it. */
class PortTaken extends Error {}

/** Starts on another free port when the one found was taken meanwhile: a few tries are plenty. */
const START_TRIES = 3;

/**
 * Starts the API as production runs it, `node .bench-build/main.js` (no npm or shell wrapper, so the
 * pid is the server itself), bound to 127.0.0.1 on a free port, and waits until it answers
 * /api/health itself.
 */
export async function startApi(
  databaseUrl: string,
  log: (s: string) => void,
  options: { cpuProfileDir?: string } = {},
): Promise<ApiServer> {
  buildOnce();
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), databaseUrl, log, options);
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt >= START_TRIES) throw err;
      log(`  ${err.message}; starting on another port`);
    }
  }
}

async function startOn(
  port: number,
  databaseUrl: string,
  log: (s: string) => void,
  options: { cpuProfileDir?: string },
): Promise<ApiServer> {
  // With a profile directory, V8 samples the process until it exits and writes a .cpuprofile there.
  const profiling = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profiling, `${BUILD_DIR}/main.js`], {
    cwd: API_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      DATABASE_READ_URLS: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      MIGRATE_ON_START: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (!pid) throw new Error('could not start the API process');
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = code ?? (signal ? -1 : 0);
      resolve();
    });
  });

  let polledMaxKb = 0;
  let hwmResettable = true;
  const poller = setInterval(() => {
    const s = procStatus(pid);
    if (s && s.rssKb > polledMaxKb) polledMaxKb = s.rssKb;
  }, 50);
  poller.unref();

  const server: ApiServer = {
    baseUrl: `http://127.0.0.1:${port}`,
    pid,
    resetPeak() {
      polledMaxKb = procStatus(pid)?.rssKb ?? 0;
      if (!hwmResettable) return;
      try {
        // "5" resets the peak RSS (VmHWM) of the process: Linux ≥ 4.0, same user or root.
        fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        hwmResettable = false;
        log('  (cannot reset VmHWM: peak RSS per scenario comes from the 50 ms poller only)');
      }
    },
    peakRssMb() {
      const s = procStatus(pid);
      const hwm = hwmResettable && s ? s.hwmKb : 0;
      return Math.max(hwm, polledMaxKb, s?.rssKb ?? 0) / 1024;
    },
    rssMb: () => (procStatus(pid)?.rssKb ?? 0) / 1024,
    async settledRssMb(minSeconds) {
      // V8's memory reducer gives back the heap grown while starting once the process has been
      // quiet for a while: 7 s in most runs, but after a fresh seed not within 15 s (106 MB flat
      // where a later start settled at 82 MB). Sampled each second for at least `minSeconds`,
      // then until three samples agree within 1 MB (twice that at most).
      const samples: number[] = [];
      for (let i = 0; i < minSeconds * 2; i++) {
        await new Promise((r) => setTimeout(r, 1_000));
        samples.push(server.rssMb());
        const last = samples.slice(-3);
        if (i >= minSeconds - 1 && Math.max(...last) - Math.min(...last) <= 1) break;
      }
      log(`  RSS samples (MB, 1 s apart): ${samples.map((s) => s.toFixed(0)).join(' ')}`);
      return samples.at(-1) ?? server.rssMb();
    },
    output: () => tail,
    async stop() {
      clearInterval(poller);
      if (exited !== undefined) return;
      child.kill('SIGTERM');
      const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), STOP_TIMEOUT_MS).unref());
      if ((await Promise.race([exitPromise, timer])) === 'timeout') {
        child.kill('SIGKILL');
        await exitPromise;
      }
    },
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    for (;;) {
      if (exited !== undefined) {
        if (/EADDRINUSE/.test(tail)) throw new PortTaken(`port ${port} was taken before the API bound it`);
        throw new Error(`the API exited with code ${exited} while starting:\n${tail}`);
      }
      if (Date.now() > deadline) throw new Error(`the API did not answer /api/health within 120 s:\n${tail}`);
      try {
        const res = await fetch(`${server.baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        // Another process's server on the port may answer too: only this child's answer counts.
        if (res.ok && listensOn(pid, port) !== false) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    await server.stop();
    throw err;
  }
  const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  log(`  API pid ${pid} (${cmdline}) listening on ${server.baseUrl}`);
  return server;
}
