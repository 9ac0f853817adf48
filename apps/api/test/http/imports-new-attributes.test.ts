import type { ImportNewResult } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// GET /users/imports/new names the custom attributes a column can fill (issue 38), so the import
// page's mapping offers them by label: those the caller may see, a sensitive one only with
// attributes.sensitive.view.
let t: TestApp;
let admin: string;
let creator: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  admin = await g.token((await g.user({ roles: ['admin'] })).id);
  creator = await g.token((await g.user({ roles: ['viewer'], permissions: ['users.create'] })).id);
  const define = async (body: Record<string, unknown>) => {
    const res = await request(t.app, { token: admin }).post('/api/attributes', body);
    expect(res.statusCode, res.body).toBe(201);
  };
  await define({ key: 'department', label: 'Department', type: 'enum', values: ['Sales', 'Support'] });
  await define({ key: 'salary_band', label: 'Salary band', type: 'number', sensitivity: 'sensitive' });
});
afterAll(() => t.close());

const attributesFor = async (token: string) => {
  const res = await request(t.app, { token }).get('/api/users/imports/new');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ImportNewResult).attributes.map((a) => [a.key, a.label, a.type]);
};

describe('GET /users/imports/new: attributes', () => {
  it('offers every attribute to a caller who may see sensitive ones', async () => {
    expect(await attributesFor(admin)).toEqual([
      ['department', 'Department', 'enum'],
      ['salary_band', 'Salary band', 'number'],
    ]);
  });

  it('leaves a sensitive attribute out for a caller without attributes.sensitive.view', async () => {
    expect(await attributesFor(creator)).toEqual([['department', 'Department', 'enum']]);
  });
});
