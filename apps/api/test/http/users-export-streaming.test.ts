import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_BATCH_SIZE } from '../../src/modules/users/export.rows.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const USERS = 5_000;
// Few distinct names (two differ only by case) and three creation times: plenty of ties to break by id.
const NAMES = ['Ann Bulk', 'ann bulk', 'Bob Bulk', 'Cy Bulk', 'Dee Bulk'];
const CREATED = ['2024-01-01T00:00:00.000Z', '2024-06-01T12:00:00.000Z', '2025-01-01T00:00:00.000Z'];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const rows = Array.from({ length: USERS }, (_, i) => ({
    name: NAMES[i % NAMES.length] as string,
    email: `bulk${i}@bulk.example`,
    password_hash: '!',
    is_active: i % 4 !== 0,
    created_at: new Date(CREATED[i % CREATED.length] as string),
  }));
  for (let i = 0; i < rows.length; i += 1_000) await t.db.models.User.bulkCreate(rows.slice(i, i + 1_000));
});
afterAll(() => t.close());

async function exporterToken(): Promise<{ id: number; token: string }> {
  const g = given(t.db);
  const user = await g.user({ roles: ['manager'], name: 'Zz Exporter' });
  return { id: user.id, token: await g.token(user.id) };
}

/** Counts the export's batch queries, by their SQL (and can slow them down, to catch a download mid-way). */
function watchBatches(delayMs = 0) {
  let count = 0;
  const batch = new RegExp(`FROM \`users\`.* LIMIT ${EXPORT_BATCH_SIZE}$`, 's');
  t.db.sequelize.addHook('beforeQuery', 'watch-export-batches', (_options, query) => {
    const q = query as unknown as { run(sql: string, ...rest: unknown[]): Promise<unknown> };
    const run = q.run.bind(q);
    q.run = async (sql, ...rest) => {
      if (batch.test(sql.trim().replace(/;$/, ''))) {
        count += 1;
        if (delayMs) await sleep(delayMs);
      }
      return run(sql, ...rest);
    };
  });
  return {
    get count() {
      return count;
    },
    stop: () => t.db.sequelize.removeHook('beforeQuery', 'watch-export-batches'),
  };
}

/** The app on a real socket (once), for a client that can hang up mid-download. */
async function listening(): Promise<number> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

const DROP_USERS = 12_000;
/** The batch being written, the two chunks the stream holds ahead (CHUNKS_AHEAD) and the two batches read ahead of those (batches.ts). */
const DROP_BOUND = 5;
let dropped = false;

/** Enough users for a download to be dropped long before its end (their own domain: no other query reads them). */
async function dropUsers() {
  if (dropped) return;
  dropped = true;
  const rows = Array.from({ length: DROP_USERS }, (_, i) => ({
    name: `Drop ${i}`,
    email: `drop${i}@drop.example`,
    password_hash: '!',
    created_at: new Date(CREATED[i % CREATED.length] as string),
  }));
  for (let i = 0; i < rows.length; i += 1_000) await t.db.models.User.bulkCreate(rows.slice(i, i + 1_000));
}

/** Every id of the list for `query`, walking its pages of 100 the way a client would. */
async function listIds(token: string, query: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page += 1) {
    const res = await request(t.app, { token }).get(`/api/users?${query}&perPage=100&page=${page}`);
    const rows: Array<{ id: number }> = res.json().rows;
    ids.push(...rows.map((r) => r.id));
    if (rows.length < 100) return ids;
  }
}

describe('GET /api/users/export, streamed', () => {
  it('streams a large export in keyset batches of 1 000 rows', async () => {
    const { token } = await exporterToken();
    const batches = watchBatches();
    try {
      const res = await request(t.app, { token }).get('/api/users/export?format=csv&q=bulk.example');
      expect(res.statusCode).toBe(200);
      const lines = res.body.split('\r\n').filter(Boolean);
      expect(lines).toHaveLength(USERS + 1);
      expect(new Set(lines.slice(1).map((line) => line.split(',')[0])).size).toBe(USERS);
      // Five full batches, then the one that finds nothing more.
      expect(batches.count).toBe(USERS / EXPORT_BATCH_SIZE + 1);
    } finally {
      batches.stop();
    }
  });

  it.each([
    'q=bulk.example&sort=name&dir=desc&filters[is_active]=active',
    'q=bulk&sort=created_at&dir=asc',
    'q=bulk&sort=is_active&dir=desc&filters[created_between][from]=2024-06-01',
  ])('exports the same ids in the same order as the list pages (%s)', async (query) => {
    const { token } = await exporterToken();
    const expected = await listIds(token, query);
    expect(expected.length).toBeGreaterThan(EXPORT_BATCH_SIZE);
    const res = await request(t.app, { token }).get(`/api/users/export?format=json&columns[]=id&${query}`);
    expect(res.json().map((row: { id: number }) => row.id)).toEqual(expected);
  });

  it.each(['csv', 'json', 'xlsx'])('stops querying when the client drops a %s download', async (format) => {
    await dropUsers();
    const { id, token } = await exporterToken();
    const port = await listening();
    const batches = watchBatches(100);
    try {
      const firstChunk = await new Promise<number>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port,
            path: `/api/users/export?format=${format}&q=drop.example`,
            headers: { authorization: `Bearer ${token}` },
          },
          (res) => {
            if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
            res.once('data', (chunk: Buffer) => {
              req.destroy();
              resolve(chunk.length);
            });
          },
        );
        req.on('error', () => undefined);
      });
      expect(firstChunk).toBeGreaterThan(0);
      await sleep(400);
      const settled = batches.count;
      // The batches the stream had taken and those on their way when the client left, and no
      // more: the full export needs thirteen.
      expect(settled).toBeLessThanOrEqual(DROP_BOUND);
      await sleep(400);
      expect(batches.count).toBe(settled);
    } finally {
      batches.stop();
    }
    // The export was logged before the first byte, so an abandoned one is on record too.
    expect(await t.db.models.AuditLog.count({ where: { action: 'users.export', actor_id: id } })).toBe(1);
  });
});
