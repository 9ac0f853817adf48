import { afterAll, beforeAll, expect } from 'vitest';
import { given } from './given.js';
import { request } from './http.js';
import { startTestApp, type TestApp } from './test-app.js';

/** The name every one of the five people carries, so a list filtered by it shows only them. */
export const TAG = 'Attrtag';
const password = { password: 'Correct-Horse-9', password_confirmation: 'Correct-Horse-9' };

type Caller = ReturnType<typeof request>;

/** What `attributePeople` has set up once its beforeAll has run. */
export interface AttributePeople {
  t: TestApp;
  /** An administrator: every attribute, the sensitive one included. */
  admin: Caller;
  /** users.view and users.export only: the sensitive attribute does not exist for them. */
  clerk: Caller;
  id: { u1: number; u2: number; u3: number; u4: number; u5: number };
}

/**
 * A fresh app with nine attributes (one of each type, and a sensitive `salary`) and five people
 * holding a spread of their values (u3's manager is u1, u4 holds none), for the attribute tests
 * of the users list and of the export. Registers its own beforeAll and afterAll; the fields are
 * set once the beforeAll has run.
 */
export function attributePeople(): AttributePeople {
  const id = { u1: 0, u2: 0, u3: 0, u4: 0, u5: 0 };
  const bed = { id } as AttributePeople;

  beforeAll(async () => {
    const t = await startTestApp();
    const a = await given(t.db).user({ roles: ['admin'] });
    const admin = request(t.app, { token: await given(t.db).token(a.id) });
    const c = await given(t.db).user({ permissions: ['users.view', 'users.export'] });
    const clerk = request(t.app, { token: await given(t.db).token(c.id) });
    Object.assign(bed, { t, admin, clerk });
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
    const item = (await admin.get(`/api/users/${id.u3}/edit`)).json().item;
    const res = await admin.put(`/api/users/${id.u3}`, {
      name: item.name,
      email: item.email,
      roles_ids: item.roles_ids,
      version: item.version,
      attributes: { manager: id.u1 },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(() => bed.t?.close());

  return bed;
}
