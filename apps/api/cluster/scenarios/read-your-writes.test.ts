import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, login, startCluster } from '../bed/cluster.js';
import { replicaStatus, waitForCatchUp } from '../bed/mariadb.js';

let c: Cluster;
let cookie: string;

beforeAll(async () => {
  c = await startCluster({ name: 'ryw', demoUsers: 200 });
  cookie = await login(c.lb.baseUrl);
});
afterAll(() => c?.close());

const headers = () => ({ cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' });

async function get<T>(path: string): Promise<T> {
  const res = await fetch(`${c.lb.baseUrl}${path}`, { headers: headers() });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

interface Item {
  item: { id: number; name: string; email: string; is_active: boolean; version: string };
}
interface List {
  rows: Array<{ id: number; name: string }>;
  meta: { total: number };
  stats: { total: number; active: number; inactive: number };
}

async function primaryCounts() {
  const [row] = (await c.primary.sql(
    'SELECT COUNT(*) AS total, SUM(is_active = 1) AS active FROM users WHERE deleted_at IS NULL',
    'useradmin',
  )) as Array<{ total: number; active: string }>;
  return { total: Number(row?.total), active: Number(row?.active) };
}

describe('read-your-writes with a lagging replica', () => {
  it('sees its own write at once on every instance while lists may lag, and stats stay exact', async () => {
    // The replica stops applying what it receives: from now on it lags behind the primary.
    await c.replica.sql('STOP SLAVE SQL_THREAD');
    const id = c.demoIds[10] as number;
    const before = await get<Item>(`/api/users/${id}/edit`);
    const name = `Ada Lagging ${Date.now()}`;
    const put = await fetch(`${c.lb.baseUrl}/api/users/${id}`, {
      method: 'PUT',
      headers: headers(),
      body: JSON.stringify({ name, email: before.item.email, version: before.item.version }),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const off = await fetch(`${c.lb.baseUrl}/api/users/${id}/active`, {
      method: 'PATCH',
      headers: headers(),
      body: JSON.stringify({ active: false }),
    });
    expect(off.status).toBe(200);

    // The same record read back at once, four times: round robin sends two reads to each instance.
    for (let n = 0; n < 4; n++) {
      const after = await get<Item>(`/api/users/${id}`);
      expect(after.item).toMatchObject({ name, is_active: false });
    }

    // A list may read the replica, which has not applied the rename: the search finds nobody.
    const status = await replicaStatus(c.replica);
    expect(status.Slave_SQL_Running).toBe('No');
    const search = await get<List>(`/api/users?q=${encodeURIComponent(name)}`);
    expect(search.rows).toEqual([]);
    // The counters come from the primary: exact whatever the replica says.
    const counts = await primaryCounts();
    expect(search.stats).toMatchObject({
      total: counts.total,
      active: counts.active,
      inactive: counts.total - counts.active,
    });

    // Once the replica has caught up, the list finds the renamed user too.
    await c.replica.sql('START SLAVE SQL_THREAD');
    await waitForCatchUp(c.primary, c.replica);
    const caughtUp = await get<List>(`/api/users?q=${encodeURIComponent(name)}`);
    expect(caughtUp.rows.map((r) => r.id)).toEqual([id]);
  });

  it('with MASTER_DELAY, a list page and the record agree once the delay has passed', async () => {
    // A replica kept 2 s behind by MariaDB itself (a delayed replica), not by a paused thread.
    await c.replica.sql('STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 2; START SLAVE;');
    const [active] = (await c.primary.sql(
      'SELECT id FROM users WHERE is_active = 1 AND deleted_at IS NULL AND id > 100 ORDER BY id LIMIT 1',
      'useradmin',
    )) as Array<{ id: number }>;
    const id = active?.id as number;
    const on = await fetch(`${c.lb.baseUrl}/api/users/${id}/active`, {
      method: 'PATCH',
      headers: headers(),
      body: JSON.stringify({ active: false }),
    });
    expect(on.status).toBe(200);
    const { item } = await get<Item>(`/api/users/${id}`);
    expect(item.is_active).toBe(false);
    const inactiveList = `/api/users?filters[is_active]=inactive&q=${encodeURIComponent(item.email)}`;
    expect((await get<List>(inactiveList)).rows).toEqual([]);
    await waitForCatchUp(c.primary, c.replica);
    expect((await get<List>(inactiveList)).rows.map((r) => r.id)).toEqual([id]);
    await c.replica.sql('STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 0; START SLAVE;');
  });
});
