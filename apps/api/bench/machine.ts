import fs from 'node:fs';
import os from 'node:os';
import type mysql from 'mysql2/promise';
import { type ConnectionSettings, connect } from './seed.js';

export interface MachineInfo {
  cpu: string;
  cores: number;
  ramGb: number;
  os: string;
  node: string;
  mariadb: string;
  bufferPoolMb: number;
  /** 1-minute load average when the run started: other work on the machine skews the numbers. */
  loadAvg: number;
}

function cpuModel(): string {
  try {
    const info = fs.readFileSync('/proc/cpuinfo', 'utf8');
    const m = /^model name\s*:\s*(.+)$/m.exec(info);
    if (m?.[1]) return m[1].trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

export async function machineInfo(settings: ConnectionSettings): Promise<MachineInfo> {
  const conn = await connect(settings, false);
  try {
    const [rows] = await conn.query<mysql.RowDataPacket[]>(
      'SELECT VERSION() AS v, @@GLOBAL.innodb_buffer_pool_size AS bp',
    );
    return {
      cpu: cpuModel(),
      cores: os.availableParallelism(),
      ramGb: os.totalmem() / 1024 ** 3,
      os: `${os.type()} ${os.release()}`,
      node: process.version,
      mariadb: String(rows[0]?.v ?? 'unknown'),
      bufferPoolMb: Number(rows[0]?.bp ?? 0) / 1024 ** 2,
      loadAvg: os.loadavg()[0] ?? Number.NaN,
    };
  } finally {
    await conn.end().catch(() => undefined);
  }
}

async function bufferPoolBytes(conn: mysql.Connection): Promise<number> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>('SELECT @@GLOBAL.innodb_buffer_pool_size AS bp');
  return Number(rows[0]?.bp ?? 0);
}

/**
 * Resizes the InnoDB buffer pool (dynamic since MariaDB 10.2) and waits for the resize to finish
 * (at most 5 minutes). Returns a function that puts the previous size back.
 */
export async function resizeBufferPool(
  settings: ConnectionSettings,
  mb: number,
  log: (s: string) => void,
): Promise<() => Promise<void>> {
  const conn = await connect(settings, false);
  try {
    const before = await bufferPoolBytes(conn);
    await setBufferPool(conn, mb * 1024 ** 2, log);
    return async () => {
      const c = await connect(settings, false);
      try {
        await setBufferPool(c, before, log);
      } finally {
        await c.end().catch(() => undefined);
      }
    };
  } finally {
    await conn.end().catch(() => undefined);
  }
}

async function setBufferPool(conn: mysql.Connection, bytes: number, log: (s: string) => void) {
  if ((await bufferPoolBytes(conn)) === bytes) return;
  log(`resizing the InnoDB buffer pool to ${bytes / 1024 ** 2} MB`);
  await conn.query('SET GLOBAL innodb_buffer_pool_size = ?', [bytes]);
  const deadline = Date.now() + 5 * 60_000;
  while (Date.now() < deadline) {
    const [rows] = await conn.query<mysql.RowDataPacket[]>(
      "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'",
    );
    const status = String(rows[0]?.Value ?? '');
    if (!/resiz|withdraw|allocat/i.test(status) || /complet/i.test(status)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`  buffer pool now ${(await bufferPoolBytes(conn)) / 1024 ** 2} MB`);
}
