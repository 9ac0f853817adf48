import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Custom attributes in the users list, its selection and its export (issue 38 item 3, SPEC §14):
 * every filter shape per type, the sort both ways with users without a value last, a sensitive
 * attribute that does not exist for a caller without attributes.sensitive.view, export columns
 * headed by the label. Runs on SQLite, and on MariaDB when TEST_MYSQL_URL is set.
 */

let t: TestApp;
let admin: ReturnType<typeof request>;
let clerk: ReturnType<typeof request>;
const id = { u1: 0, u2: 0, u3: 0, u4: 0, u5: 0 };

const TAG = 'Attrtag';
const password = { password: 'Correct-Horse-9', password_confirmation: 'Correct-Horse-9' };

beforeAll(async () => {
  t = await startTestApp();
  const a = await given(t.db).user({ roles: ['admin'] });
  admin = request(t.app, { token: await given(t.db).token(a.id) });
  const c = await given(t.db).user({ permissions: ['users.view', 'users.export'] });
  clerk = request(t.app, { token: await given(t.db).token(c.id) });
  for (const body of [
    { key: 'department', label: 'Department', type: 'enum', values: ['Sales', 'Support', 'Legal'] },
    { key: 'cost_centre', label: 'Cost centre', type: 'string' },
    { key: 'contact', label: 'Contact', type: 'email' },
    { key: 'site', label: 'Site', type: 'url' },
    { key: 'level', label: 'Level', type: 'number' },
    { key: 'start_date', label: 'Start date', type: 'date' },
    { key: 'remote', label: 'Remote', type: 'boolean' },
    { key: 'manager', label: 'Manager', type: 'user' },
    { key: 'salary', label: 'Salary', type: 'number', sensitivity: 'sensitive' },
  ]) {
    const res = await admin.post('/api/attributes', { sensitivity: 'none', ...body });
    expect(res.statusCode, res.body).toBe(201);
  }
  const people: Array<[keyof typeof id, Record<string, unknown>]> = [
    [
      'u1',
      {
        department: 'Sales',
        cost_centre: 'CC-100',
        contact: 'a@x.io',
        site: 'https://a.example',
        level: 3,
        start_date: '2020-01-15',
        remote: true,
        salary: 4242,
      },
    ],
    ['u2', { department: 'support', cost_centre: 'cc-200', level: 10, start_date: '2021-06-01', remote: false }],
    ['u3', { department: 'Legal', level: 2, start_date: '2019-03-03' }],
    ['u4', {}],
    ['u5', { department: 'Sales', cost_centre: 'XX-100', level: 3 }],
  ];
  for (const [name, attributes] of people) {
    const res = await admin.post('/api/users', {
      name: `${TAG} ${name}`,
      email: `${name}@attrs.test`,
      ...password,
      attributes,
    });
    expect(res.statusCode, res.body).toBe(201);
    id[name] = res.json().item.id;
  }
  const res = await admin.put(`/api/users/${id.u3}`, await editBody(id.u3, { manager: id.u1 }));
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t.close());

async function editBody(userId: number, attributes: Record<string, unknown>) {
  const item = (await admin.get(`/api/users/${userId}/edit`)).json().item;
  return { name: item.name, email: item.email, roles_ids: item.roles_ids, version: item.version, attributes };
}

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

describe('export with attribute columns', () => {
  const url = (format: string) =>
    `/api/users/export?format=${format}&filters[name]=${TAG}&sort=attributes.level&columns[]=name&columns[]=attributes.department&columns[]=attributes.level&columns[]=attributes.remote&columns[]=attributes.manager`;

  it('CSV: headed by the labels, values in the list order, empty cells for no value', async () => {
    const res = await admin.get(url('csv'));
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines).toEqual([
      '"Name","Department","Level","Remote","Manager"',
      `"${TAG} u3","Legal",2,,${id.u1}`,
      `"${TAG} u1","Sales",3,true,`,
      `"${TAG} u5","Sales",3,,`,
      `"${TAG} u2","Support",10,false,`,
      `"${TAG} u4","",,,`,
    ]);
  });

  it('JSON: native values, null for none, filtered like the list', async () => {
    const res = await admin.get(`${url('json')}&filters[attributes][department]=Sales`);
    expect(res.json()).toEqual([
      {
        name: `${TAG} u1`,
        'attributes.department': 'Sales',
        'attributes.level': 3,
        'attributes.remote': true,
        'attributes.manager': null,
      },
      {
        name: `${TAG} u5`,
        'attributes.department': 'Sales',
        'attributes.level': 3,
        'attributes.remote': null,
        'attributes.manager': null,
      },
    ]);
  });

  // A batch's values are read apart from its rows, one text per attribute in id order: whatever
  // the rows' order, each user must get their own values and no one else's.
  it.each([
    ['newest first (the default)', '', ['u5', 'u4', 'u3', 'u2', 'u1']],
    ['oldest first', '&sort=id&dir=asc', ['u1', 'u2', 'u3', 'u4', 'u5']],
    ['by name, descending', '&sort=name&dir=desc', ['u5', 'u4', 'u3', 'u2', 'u1']],
  ])('puts each user’s own values on their row, %s', async (_, order, names) => {
    const res = await admin.get(
      `/api/users/export?format=json&filters[name]=${TAG}${order}&columns[]=name&columns[]=attributes.cost_centre&columns[]=attributes.level&columns[]=attributes.manager`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const values: Record<string, [string | null, number | null, number | null]> = {
      u1: ['CC-100', 3, null],
      u2: ['cc-200', 10, null],
      u3: [null, 2, id.u1],
      u4: [null, null, null],
      u5: ['XX-100', 3, null],
    };
    expect(res.json()).toEqual(
      names.map((name) => ({
        name: `${TAG} ${name}`,
        'attributes.cost_centre': values[name]?.[0],
        'attributes.level': values[name]?.[1],
        'attributes.manager': values[name]?.[2],
      })),
    );
  });

  it('XLSX: a file', async () => {
    const res = await admin.get(url('xlsx'));
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  // The export reads a batch's values of an attribute as one text split on a control character
  // no door lets into a value; values written by hand that the text cannot carry exactly are read
  // again row by row.
  it('exports values written by hand exactly as stored: a separator inside, a number kept as text', async () => {
    const attributeId = async (key: string) =>
      Number(
        (
          (
            await t.db.sequelize.query('SELECT id FROM attributes WHERE `key` = :key', { replacements: { key } })
          )[0] as Array<{ id: number }>
        )[0]?.id,
      );
    const write = (key: string, text: string) =>
      attributeId(key).then((attribute) =>
        t.db.sequelize.query(
          'INSERT INTO user_attribute_values (attribute_id, user_id, text_value, number_value) VALUES (:attribute, :user, :text, NULL)',
          { replacements: { attribute, user: id.u4, text } },
        ),
      );
    await write('department', 'Le\u001egal:9');
    await write('level', '7x');
    try {
      const res = await admin.get(url('json').replace('&sort=attributes.level', ''));
      expect(res.json().filter((row: { name: string }) => row.name === `${TAG} u4`)).toEqual([
        {
          name: `${TAG} u4`,
          'attributes.department': 'Le\u001egal:9',
          'attributes.level': '7x',
          'attributes.remote': null,
          'attributes.manager': null,
        },
      ]);
    } finally {
      await t.db.sequelize.query('DELETE FROM user_attribute_values WHERE user_id = :user', {
        replacements: { user: id.u4 },
      });
    }
  });

  it('an unknown attribute column is refused as an unknown column', async () => {
    const res = await admin.get('/api/users/export?columns[]=attributes.nope');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ columns: ['There is no attribute "nope" to export.'] });
  });
});
