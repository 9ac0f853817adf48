import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { type ApiProcess, startApiProcess } from '../support/api-process.js';
import { given } from '../support/given.js';
import { sharedStringsBomb, XLSX_TYPE, zipToFile } from '../support/hostile-imports.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * The probe's memory bomb against the API as production runs it (`node dist/main.js`), its
 * memory read from /proc: an XLSX of tiny shared strings, under both zip-bomb checks, took the
 * process to 2.6 GB for 106 s and left it there. Two are sent at once, and the server must answer
 * meanwhile, refuse both with 422, stay under its memory budget and give back what it took.
 *
 * In `npm test` the bomb is scaled down (2 million strings against IMPORT_MAX_ROWS=1000, whose
 * limit is 65 536). IMPORT_BOMB_FULL=1 sends the probe's own size (70 million strings, 13 MB
 * zipped, 1.2 GB inflated) against the default configuration and prints what it measured.
 */

const FULL = process.env.IMPORT_BOMB_FULL === '1';
const STRINGS = FULL ? 70_000_000 : 2_000_000;
/** Peak resident memory the API may reach with both bombs in flight. */
const PEAK_MB = 300;
/**
 * What may stay resident after they are refused: the shared strings' buffers are handed back at
 * once, but V8 keeps its young generation at the size a burst of parsing grew it to (~40 MB).
 */
const KEPT_MB = 64;

const dir = mkdtempSync(path.join(os.tmpdir(), 'import-bomb-'));
const bombPath = path.join(dir, 'bomb.xlsx');
let target: TestDatabaseTarget;
let db: Database;
let api: ApiProcess;
let token = '';

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  await seedPermissionsAndRoles(db);
  const g = given(db);
  token = await g.token((await g.user({ roles: ['admin'] })).id);
  await zipToFile(sharedStringsBomb(STRINGS), bombPath);
  api = await startApiProcess(target, {
    JOBS_RUNNER: 'false',
    WEBHOOKS_DISPATCHER: 'false',
    ...(FULL ? {} : { IMPORT_MAX_ROWS: '1000' }),
  });
}, 600_000);
afterAll(async () => {
  await api?.kill();
  await db?.close();
  await target?.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** VmRSS and VmHWM (the peak so far) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

describe('an XLSX of millions of tiny shared strings (the probe’s memory bomb)', () => {
  it('is refused with 422 while the server answers, within its memory, which it gives back', async () => {
    const pid = api.child.pid as number;
    const bomb = readFileSync(bombPath);
    const before = memoryOf(pid);
    const started = performance.now();
    const send = () =>
      fetch(`${api.base}/api/users/imports?dryRun=true`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': XLSX_TYPE },
        body: bomb,
      }).then(async (res) => ({ status: res.status, body: await res.text(), ms: performance.now() - started }));
    const uploads = Promise.all([send(), send()]);
    // The server answers others while the two are read: /api/ready (which asks the database) in turn.
    let done = false;
    void uploads.finally(() => {
      done = true;
    });
    const probes: number[] = [];
    let rssPeak = before.rss;
    while (!done || probes.length < 5) {
      const asked = performance.now();
      const ready = await fetch(`${api.base}/api/ready`);
      await ready.arrayBuffer();
      expect(ready.status).toBe(200);
      probes.push(performance.now() - asked);
      rssPeak = Math.max(rssPeak, memoryOf(pid).rss);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answers = await uploads;
    const peak = memoryOf(pid).peak;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = memoryOf(pid).rss;
    const measured = {
      strings: STRINGS,
      zipMb: +(bomb.length / 1024 / 1024).toFixed(1),
      answeredMs: answers.map((a) => Math.round(a.ms)),
      rssBeforeMb: Math.round(before.rss),
      rssPeakSampledMb: Math.round(rssPeak),
      vmHwmMb: Math.round(peak),
      rssAfterMb: Math.round(after),
      readyProbes: probes.length,
      slowestReadyMs: Math.round(Math.max(0, ...probes)),
    };
    console.log(`import bomb: ${JSON.stringify(measured)}`);
    for (const answer of answers) {
      expect(answer.status, answer.body.slice(0, 300)).toBe(422);
      expect(JSON.parse(answer.body).detail).toMatch(/^The workbook holds more than [\d,]+ shared texts/);
    }
    expect(peak).toBeLessThan(PEAK_MB);
    expect(after).toBeLessThan(before.rss + KEPT_MB);
    expect(Math.max(0, ...probes)).toBeLessThan(1_000);
  }, 600_000);
});
