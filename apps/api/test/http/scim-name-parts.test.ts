import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { filterQuery, scimClient } from '../support/scim-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// What an identity provider says of a name and an e-mail beyond the product's one name and one
// e-mail is read back as it was sent (migration 0031), until another door renames the account.

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

let t: TestApp;
let scim: ReturnType<typeof scimClient>;
let adminToken: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  const admin = await g.user({ roles: ['admin'] });
  adminToken = await g.token(admin.id);
  scim = scimClient(t.app, adminToken);
});
afterAll(() => t.close());

const create = async (email: string, more: Record<string, unknown>) => {
  const res = await scim.post('/Users', { schemas: [USER], userName: email, ...more });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; name: Record<string, string>; emails: Record<string, unknown>[] };
};

const ids = async (filter: string) =>
  ((await scim.get(`/Users${filterQuery(filter)}`)).json().Resources as { id: string }[]).map((r) => r.id);

describe('name parts', () => {
  it('reads back the parts as sent when the name cannot say them, and finds the user by them', async () => {
    const sent = { formatted: 'Dr. Mary Ann van der Berg', givenName: 'Mary Ann', familyName: 'van der Berg' };
    const user = await create('mary.berg@example.com', { name: sent, emails: [{ value: 'mary.berg@example.com' }] });
    expect(user.name).toEqual(sent);
    expect((await scim.get(`/Users/${user.id}`)).json().name).toEqual(sent);

    expect(await ids('name.familyName eq "van der berg"')).toEqual([user.id]);
    expect(await ids('name.familyName co "der Be"')).toEqual([user.id]);
    expect(await ids('name.givenName sw "Mary A"')).toEqual([user.id]);
    // The name's own last word is no longer its family name.
    expect(await ids('name.familyName eq "Berg"')).toEqual([]);
  });

  it('keeps what a PATCH sends whatever the order of formatted and the parts', async () => {
    const user = await create('order@example.com', { name: { givenName: 'Ada', familyName: 'Byron' } });
    expect(user.name).toEqual({ formatted: 'Ada Byron', givenName: 'Ada', familyName: 'Byron' });
    const name = { formatted: 'Augusta Ada King', familyName: 'King', givenName: 'Augusta Ada' };
    const patched = await scim.patch(`/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'name', value: name }],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().name).toEqual(name);

    // A part alone (as Entra sends it) makes the full name again from the parts.
    const entra = await scim.patch(`/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'name.familyName', value: 'Lovelace' }],
    });
    expect(entra.json().name).toEqual({
      formatted: 'Augusta Ada Lovelace',
      givenName: 'Augusta Ada',
      familyName: 'Lovelace',
    });
  });

  it('drops the parts when another door renames the account', async () => {
    const user = await create('renamed@example.com', {
      name: { formatted: 'Grace Brewster Hopper', givenName: 'Grace', familyName: 'Brewster Hopper' },
    });
    const rest = request(t.app, { token: adminToken });
    const shown = (await rest.get(`/api/users/${user.id}/edit`)).json();
    const item = shown.item ?? shown;
    const renamed = await rest.put(`/api/users/${user.id}`, {
      name: 'Grace Murray',
      email: item.email,
      version: item.version,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await scim.get(`/Users/${user.id}`)).json().name).toEqual({
      formatted: 'Grace Murray',
      givenName: 'Grace',
      familyName: 'Murray',
    });
    expect(await ids('name.familyName eq "Brewster Hopper"')).toEqual([]);
  });

  it('refuses a part the product could not keep as a name', async () => {
    const res = await scim.post('/Users', {
      schemas: [USER],
      userName: 'long.part@example.com',
      name: { givenName: 'G', familyName: 'x'.repeat(101) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ scimType: 'invalidValue', detail: expect.stringMatching(/^name\.familyName/) });
  });
});

describe("the e-mail's primary", () => {
  it('is read back as sent, absent when it was not, and true for accounts made elsewhere', async () => {
    const unsaid = await create('unsaid@example.com', { emails: [{ value: 'unsaid@example.com', type: 'work' }] });
    expect(unsaid.emails).toEqual([{ value: 'unsaid@example.com', type: 'work' }]);
    const said = await create('said@example.com', { emails: [{ value: 'said@example.com', primary: true }] });
    expect(said.emails).toEqual([{ value: 'said@example.com', type: 'work', primary: true }]);

    const replaced = await scim.patch(`/Users/${said.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'emails', value: [{ value: 'said@example.com', type: 'work' }] }],
    });
    expect(replaced.json().emails).toEqual([{ value: 'said@example.com', type: 'work' }]);
    expect(await ids('emails.primary eq true and userName sw "said@"')).toEqual([]);
    expect(await ids('emails.primary ne true and userName sw "said@"')).toEqual([said.id]);

    const elsewhere = await given(t.db).user({ email: 'elsewhere@example.com' });
    expect((await scim.get(`/Users/${elsewhere.id}`)).json().emails).toEqual([
      { value: 'elsewhere@example.com', type: 'work', primary: true },
    ]);
  });
});
