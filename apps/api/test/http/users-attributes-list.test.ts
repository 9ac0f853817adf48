import { beforeAll, describe, expect, it } from 'vitest';
import { attributePeople, TAG } from '../support/attribute-people.js';
import type { request } from '../support/http.js';

/**
 * Custom attributes in the users list and its selection (issue 38 item 3, SPEC §14): every filter
 * shape per type, the sort both ways with users without a value last, a sensitive attribute that
 * does not exist for a caller without attributes.sensitive.view. The export's attribute columns
 * are in users-attributes-export. Runs on SQLite, and on MariaDB when TEST_MYSQL_URL is set.
 */

const bed = attributePeople();
const { id } = bed;
let admin: ReturnType<typeof request>;
let clerk: ReturnType<typeof request>;
beforeAll(() => {
  ({ admin, clerk } = bed);
});

const q = (raw: string) => `/api/users?filters[name]=${TAG}&perPage=100&${raw}`;
const names = (res: { json(): { rows: Array<{ name: string }> } }) =>
  res.json().rows.map((r) => r.name.replace(`${TAG} `, ''));
const sorted = (list: string[]) => [...list].sort();

async function match(raw: string, caller = admin) {
  const res = await caller.get(q(raw));
  expect(res.statusCode, res.body).toBe(200);
  return names(res);
}

describe('filters by attribute', () => {
  it('eq on an enumeration, whatever the letter case', async () => {
    expect(sorted(await match('filters[attributes][department]=sales'))).toEqual(['u1', 'u5']);
  });

  it('any of several values', async () => {
    expect(
      sorted(await match('filters[attributes][department][]=Support&filters[attributes][department][]=Legal')),
    ).toEqual(['u2', 'u3']);
  });

  it('eq and ranges on a number, reversed bounds swapped', async () => {
    expect(sorted(await match('filters[attributes][level]=3'))).toEqual(['u1', 'u5']);
    expect(sorted(await match('filters[attributes][level][from]=2&filters[attributes][level][to]=3'))).toEqual([
      'u1',
      'u3',
      'u5',
    ]);
    expect(sorted(await match('filters[attributes][level][from]=10&filters[attributes][level][to]=3'))).toEqual([
      'u1',
      'u2',
      'u5',
    ]);
  });

  it('a date range, either bound', async () => {
    expect(sorted(await match('filters[attributes][start_date][from]=2020-01-01'))).toEqual(['u1', 'u2']);
    expect(sorted(await match('filters[attributes][start_date][to]=2020-01-15'))).toEqual(['u1', 'u3']);
  });

  it('contains on text, case-insensitive, with % and _ literal', async () => {
    expect(sorted(await match('filters[attributes][cost_centre][contains]=cc-'))).toEqual(['u1', 'u2']);
    expect(await match('filters[attributes][cost_centre][contains]=C%25')).toEqual([]);
  });

  it('eq on e-mail, address, yes/no and user', async () => {
    expect(await match('filters[attributes][contact]=A@X.IO')).toEqual(['u1']);
    expect(await match('filters[attributes][site]=https://a.example')).toEqual(['u1']);
    expect(await match('filters[attributes][remote]=false')).toEqual(['u2']);
    expect(await match('filters[attributes][remote]=1')).toEqual(['u1']);
    expect(await match(`filters[attributes][manager]=${id.u1}`)).toEqual(['u3']);
  });

  it('empty, and its opposite', async () => {
    expect(await match('filters[attributes][department][empty]=true')).toEqual(['u4']);
    expect(sorted(await match('filters[attributes][remote][empty]=false'))).toEqual(['u1', 'u2']);
  });

  it('combines with each other and with the list filters', async () => {
    expect(await match('filters[attributes][department]=Sales&filters[attributes][cost_centre][contains]=XX')).toEqual([
      'u5',
    ]);
  });

  it('echoes the filters as understood', async () => {
    const res = await admin.get(q('filters[attributes][level]=3'));
    expect(res.json().filters.attributes).toEqual({ level: ['3'] });
  });

  it.each([
    ['filters[attributes][nope]=1', 'filters.attributes.nope', 'There is no attribute "nope" to filter by.'],
    ['filters[attributes][level][contains]=1', 'filters.attributes.level', 'Level cannot be filtered by "contains".'],
    [
      'filters[attributes][department][from]=A',
      'filters.attributes.department',
      'Department cannot be filtered by a range.',
    ],
    ['filters[attributes][level]=many', 'filters.attributes.level', 'Level must be a number.'],
    [
      'filters[attributes][department]=Nope',
      'filters.attributes.department',
      'Department must be one of: Sales, Support, Legal.',
    ],
    [
      'filters[attributes][start_date][from]=2020-02-30',
      'filters.attributes.start_date',
      'Start date must be a date, as YYYY-MM-DD.',
    ],
    ['filters[attributes][remote]=maybe', 'filters.attributes.remote', 'Remote must be true or false.'],
  ])('refuses %s with 422 naming the filter', async (raw, field, message) => {
    const res = await admin.get(q(raw));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ [field]: [message] });
  });

  it('the same through tRPC', async () => {
    const input = encodeURIComponent(JSON.stringify({ filters: { name: TAG, attributes: { level: [3] } } }));
    const res = await admin.get(`/api/trpc/users.list?input=${input}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .result.data.rows.map((r: { name: string }) => r.name)
        .sort(),
    ).toEqual([`${TAG} u1`, `${TAG} u5`]);
  });

  it('the selection ("select all matching") takes them too', async () => {
    const res = await admin.get(`/api/users/selected?filters[name]=${TAG}&filters[attributes][department]=Sales`);
    expect(res.statusCode, res.body).toBe(200);
    expect([...res.json().ids].sort()).toEqual([id.u1, id.u5].sort());
  });
});

describe('a bulk selection by attribute', () => {
  it('is judged at submission: the job counts what the list shows, an unknown attribute is refused', async () => {
    const listed = await admin.get('/api/users?filters[attributes][department]=Sales');
    const res = await admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      dryRun: true,
      selection: { query: { filters: { attributes: { department: 'Sales' } } } },
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().job.progress.total).toBe(listed.json().meta.total);
    const unknown = await admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      dryRun: true,
      selection: { query: { filters: { attributes: { nope: 'x' } } } },
    });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['filters.attributes.nope']);
  });
});

describe('sort by attribute', () => {
  it('ascending: values in order, ties by id, users without a value last', async () => {
    expect(await match('sort=attributes.level&dir=asc')).toEqual(['u3', 'u1', 'u5', 'u2', 'u4']);
    expect(await match('sort=attributes.department')).toEqual(['u3', 'u1', 'u5', 'u2', 'u4']);
  });

  it('descending: values in reverse, ties by id descending, users without a value still last', async () => {
    expect(await match('sort=attributes.level&dir=desc')).toEqual(['u2', 'u5', 'u1', 'u3', 'u4']);
    expect(await match('sort=attributes.start_date&dir=desc')).toEqual(['u2', 'u1', 'u3', 'u5', 'u4']);
  });

  it('pages across the holders and the users without a value', async () => {
    const page = async (perPage: number, n: number) => {
      const res = await admin.get(`/api/users?filters[name]=${TAG}&sort=attributes.level&perPage=${perPage}&page=${n}`);
      expect(res.statusCode, res.body).toBe(200);
      return names(res);
    };
    expect([await page(10, 1), await page(10, 2)]).toEqual([['u3', 'u1', 'u5', 'u2', 'u4'], []]);
    // The holders run out within page 2, and before page 3 starts.
    expect([await page(3, 2), await page(2, 3)]).toEqual([['u2', 'u4'], ['u4']]);
  });

  it('sorts within a filter', async () => {
    expect(await match('filters[attributes][level][from]=3&sort=attributes.cost_centre&dir=desc')).toEqual([
      'u5',
      'u2',
      'u1',
    ]);
  });

  it('orders the selection ("select all matching") the same way', async () => {
    const res = await admin.get(`/api/users/selected?filters[name]=${TAG}&sort=attributes.level&dir=desc`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ids).toEqual([id.u2, id.u5, id.u1, id.u3, id.u4]);
    const few = await admin.get(
      `/api/users/selected?filters[name]=${TAG}&filters[attributes][level][from]=3&sort=attributes.level`,
    );
    expect(few.json().ids).toEqual([id.u1, id.u5, id.u2]);
  });

  it('refuses an attribute that does not exist', async () => {
    const res = await admin.get(q('sort=attributes.nope'));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ sort: ['There is no attribute "nope" to sort by.'] });
  });
});

describe('rows and definitions', () => {
  it('rows carry the values the caller may see, and the answer the attributes', async () => {
    const res = await admin.get(q('filters[attributes][department]=Sales&sort=id'));
    const [u1, u5] = res.json().rows;
    expect(u1.attributes).toEqual({
      department: 'Sales',
      cost_centre: 'CC-100',
      contact: 'a@x.io',
      site: 'https://a.example',
      level: 3,
      start_date: '2020-01-15',
      remote: true,
      salary: 4242,
    });
    expect(u5.attributes).toEqual({ department: 'Sales', cost_centre: 'XX-100', level: 3 });
    expect(res.json().attributes.map((a: { key: string }) => a.key)).toContain('salary');
  });

  it('a row without values carries an empty record', async () => {
    expect((await admin.get(q('filters[attributes][department][empty]=true'))).json().rows[0].attributes).toEqual({});
  });
});

describe('a sensitive attribute, for a caller without attributes.sensitive.view', () => {
  it('does not exist: a filter on it is refused as an unknown key', async () => {
    const res = await clerk.get(q('filters[attributes][salary][from]=0'));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'filters.attributes.salary': ['There is no attribute "salary" to filter by.'],
    });
    const probe = await clerk.get(q('filters[attributes][salary][empty]=true'));
    expect(probe.statusCode).toBe(422);
  });

  it('cannot be sorted by', async () => {
    const res = await clerk.get(q('sort=attributes.salary'));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ sort: ['There is no attribute "salary" to sort by.'] });
  });

  it('is absent from rows and from the attributes the answer offers', async () => {
    const res = await clerk.get(q('filters[attributes][department]=Sales&sort=id'));
    expect(res.statusCode).toBe(200);
    expect(res.json().rows[0].attributes).not.toHaveProperty('salary');
    expect(res.json().attributes.map((a: { key: string }) => a.key)).not.toContain('salary');
    expect(res.body).not.toContain('4242');
  });

  it('cannot be exported, and is absent from every export', async () => {
    const refused = await clerk.get('/api/users/export?columns[]=name&columns[]=attributes.salary');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ columns: ['There is no attribute "salary" to export.'] });
    const file = await clerk.get(
      `/api/users/export?format=json&filters[name]=${TAG}&columns[]=name&columns[]=attributes.level`,
    );
    expect(file.statusCode).toBe(200);
    expect(file.body).not.toContain('4242');
    expect(file.body).not.toContain('salary');
  });
});
