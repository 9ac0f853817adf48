import type { AuditRow } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { scimClient } from '../support/scim-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

let t: TestApp;
let adminToken: string;
let provisioned: number;
let edited: number;

const audit = (query: string) => request(t.app, { token: adminToken }).get(`/api/audit${query}`);
const rowsOf = async (query: string): Promise<AuditRow[]> => {
  const res = await audit(query);
  expect(res.statusCode).toBe(200);
  return res.json().rows;
};

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  const adminId = (await g.user({ roles: ['admin'], name: 'Ada Admin' })).id;
  await g.user({ roles: ['admin'] });
  adminToken = await g.token(adminId);
  // An identity provider creates one account over SCIM; the administrator edits another over REST.
  const okta = scimClient(t.app, (await createApiToken(t.db, adminId, 'Okta provisioning', null)).token);
  const created = await okta.post('/Users', {
    schemas: [USER],
    userName: 'grace@example.com',
    name: { givenName: 'Grace', familyName: 'Hopper' },
    emails: [{ primary: true, value: 'grace@example.com', type: 'work' }],
    active: true,
  });
  expect(created.statusCode).toBe(201);
  provisioned = Number(created.json().id);
  edited = (await g.user({ name: 'Alan Turing' })).id;
  expect((await usersApi(t.app, adminToken).setActive(edited, false)).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('GET /audit filtered by the door a change came through', () => {
  it('shows only what identity providers did with filters[via]=scim, counted alike', async () => {
    const res = await audit('?filters[via]=scim');
    expect(res.statusCode).toBe(200);
    const rows: AuditRow[] = res.json().rows;
    expect(rows.map((r) => [r.action, r.target_ids])).toEqual([['user.create', [provisioned]]]);
    expect(rows[0]?.via).toEqual({ kind: 'scim', name: 'Okta provisioning' });
    expect(res.json().meta.total).toBe(1);
    expect(res.json().filters).toEqual({ via: 'scim' });
  });

  it('leaves SCIM’s changes out of the other doors', async () => {
    const byToken = await rowsOf('?filters[via]=token');
    expect(byToken.map((r) => [r.action, r.target_ids])).toEqual([['user.deactivate', [edited]]]);
    expect(await rowsOf('?filters[via]=session')).toEqual([]);
  });

  it('narrows a user’s history too (read through the targets’ index)', async () => {
    expect((await rowsOf(`?filters[user_id]=${provisioned}&filters[via]=scim`)).map((r) => r.action)).toEqual([
      'user.create',
    ]);
    expect(await rowsOf(`?filters[user_id]=${edited}&filters[via]=scim`)).toEqual([]);
  });

  it('refuses a door that does not exist, naming the ones that do', async () => {
    for (const door of ['unknown', 'ldap']) {
      const res = await audit(`?filters[via]=${door}`);
      expect(res.statusCode).toBe(422);
      expect(JSON.stringify(res.json())).toContain('session, token, scim or cli');
    }
  });
});
