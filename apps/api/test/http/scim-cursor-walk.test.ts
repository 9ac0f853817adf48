import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNUSABLE_PASSWORD } from '../../src/auth/password.js';
import { given } from '../support/given.js';
import { scimClient } from '../support/scim-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const USERS = 20_000;
const DELETED = 50;

let t: TestApp;
let scim: ReturnType<typeof scimClient>;
let victims: number[];

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  const admin = await g.user({ roles: ['admin'] });
  await g.user({ roles: ['admin'] });
  scim = scimClient(t.app, await g.token(admin.id));
  const now = new Date();
  const rows = Array.from({ length: USERS }, (_, i) => ({
    name: `Walker ${i}`,
    email: `walker-${i}@example.com`,
    password_hash: UNUSABLE_PASSWORD,
    // Every 400th is inactive: deletable (an active account must be deactivated first).
    is_active: i % 400 !== 0,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += 2_000) await t.db.models.User.bulkCreate(rows.slice(i, i + 2_000));
  const inactive = await t.db.models.User.findAll({
    attributes: ['id'],
    where: { is_active: false },
    order: [['id', 'ASC']],
  });
  victims = inactive.map((u) => u.id).slice(0, DELETED);
}, 120_000);
afterAll(() => t.close());

describe('a cursor walk (RFC 9865) while users are deleted', () => {
  it('returns every user that existed throughout exactly once', async () => {
    const before = new Set((await t.db.models.User.findAll({ attributes: ['id'] })).map((u) => u.id));
    const seen: number[] = [];
    let pages = 0;
    const walk = async () => {
      let cursor = '';
      for (;;) {
        const res = await scim.get(`/Users?cursor=${encodeURIComponent(cursor)}&count=500&attributes=id`);
        expect(res.statusCode).toBe(200);
        const body = res.json() as { Resources: { id: string }[]; nextCursor?: string };
        seen.push(...body.Resources.map((r) => Number(r.id)));
        pages++;
        if (!body.nextCursor) return;
        cursor = body.nextCursor;
      }
    };
    // The deletions run while the walk pages: one every few milliseconds, over the SCIM door.
    const deletions = (async () => {
      for (const id of victims) {
        const res = await scim.delete(`/Users/${id}`);
        expect(res.statusCode).toBe(204);
      }
    })();
    await Promise.all([walk(), deletions]);

    const deleted = new Set(victims);
    const throughout = [...before].filter((id) => !deleted.has(id));
    expect(new Set(seen).size).toBe(seen.length);
    const missing = throughout.filter((id) => !seen.includes(id));
    expect(missing).toEqual([]);
    expect(seen.every((id) => before.has(id))).toBe(true);
    expect(pages).toBeGreaterThanOrEqual(Math.floor(throughout.length / 500));
  }, 120_000);
});

describe('a list that names no count', () => {
  it('answers the page size the configuration advertises, in id order', async () => {
    const config = (await scim.get('/ServiceProviderConfig')).json();
    expect(config.pagination).toMatchObject({ defaultPageSize: 100, maxPageSize: 1000 });
    expect(config.filter.maxResults).toBe(1000);
    const listed = (await scim.get('/Users?attributes=id')).json();
    expect(listed).toMatchObject({ startIndex: 1, itemsPerPage: 100 });
    expect(listed.totalResults).toBeGreaterThan(1000);
    const ids = (listed.Resources as { id: string }[]).map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const largest = (await scim.get('/Users?attributes=id&count=5000')).json();
    expect(largest.itemsPerPage).toBe(1000);
  });
});
