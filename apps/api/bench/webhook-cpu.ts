import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Where the CPU went while webhooks drained: the API process (claiming, signing, sending,
 * recording), this process (the receiver, verifying every signature) and MariaDB, each as a
 * share of one core over the same wall time. On a 2-core machine, the one near 100 % is what
 * bounds the rate. Read from /proc (Linux); a process that cannot be read is left out.
 */
export interface CpuShares {
  wallSeconds: number;
  /** CPU seconds used over the window, per 1 s of wall time (1.0 = one core busy). */
  api: number | null;
  receiver: number;
  database: number | null;
}

let ticks: number | null = null;
/** Clock ticks per second of /proc/<pid>/stat's times (100 on every Linux seen; asked once). */
function ticksPerSecond(): number {
  if (ticks === null) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** User plus system CPU seconds of a process, or null when /proc does not have it. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ", field 3 (state) is index 0: utime (14) and stime (15) are 11 and 12.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return null;
  }
}

/** The local MariaDB/MySQL server's pid, when it runs on this machine. */
function databasePid(): number | null {
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const comm = fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'mariadbd' || comm === 'mysqld') return Number(entry);
    }
  } catch {
    // not Linux, or /proc not readable
  }
  return null;
}

/** Starts a window over the API process, this process and the database; `stop()` gives the shares. */
export function cpuWindow(apiPid: number): { stop(): CpuShares } {
  const dbPid = databasePid();
  const wall0 = performance.now();
  const api0 = cpuSeconds(apiPid);
  const self0 = process.cpuUsage();
  const db0 = dbPid === null ? null : cpuSeconds(dbPid);
  return {
    stop() {
      const wallSeconds = (performance.now() - wall0) / 1000;
      const api1 = cpuSeconds(apiPid);
      const self = process.cpuUsage(self0);
      const db1 = dbPid === null ? null : cpuSeconds(dbPid);
      const share = (a: number | null, b: number | null) =>
        a === null || b === null || wallSeconds <= 0 ? null : (b - a) / wallSeconds;
      return {
        wallSeconds,
        api: share(api0, api1),
        receiver: (self.user + self.system) / 1e6 / wallSeconds,
        database: share(db0, db1),
      };
    },
  };
}

const pct = (share: number | null) => (share === null ? 'n/a' : `${Math.round(share * 100)} %`);

export const describeCpu = (c: CpuShares) =>
  `CPU over ${c.wallSeconds.toFixed(1)} s, in % of one core: API ${pct(c.api)}, receiver (this process) ${pct(c.receiver)}, MariaDB ${pct(c.database)}`;
