import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { scimClient } from '../support/scim-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * What the SCIM fuzzer (test/fuzz/scim.fuzz.test.ts) and the SCIM permission matrix found, each
 * as the plain request that showed it, kept so they stay fixed.
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

let t: TestApp;
let adminToken: string;
let nobody: ReturnType<typeof scimClient>;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  adminToken = await g.token((await g.user({ roles: ['admin'] })).id);
  nobody = scimClient(t.app, await g.token((await g.user()).id));
});
afterAll(() => t.close());

const send = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: string) =>
  t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/scim+json' }),
    },
    ...(payload === undefined ? {} : { payload }),
  });

/** A User body whose `displayName` is an object nested `depth` levels deep, written as raw JSON. */
const deepUser = (userName: string, depth: number) =>
  `{"schemas":["${USER}"],"userName":"${userName}","displayName":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;

describe('SCIM regressions', () => {
  // Found by the fuzzer: canonicalKeys (src/scim/users/scim-user.input.ts) recurses into every
  // value, so a body nested 5 000 levels overflows the stack: 500, "Maximum call stack size exceeded".
  it('refuses a User body nested 5 000 levels deep on POST /Users with a SCIM 400, not a 500', async () => {
    const res = await send('POST', '/api/scim/v2/Users', deepUser('deep@example.com', 5000));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ schemas: [ERROR], status: '400' });
  });

  it('refuses the same body on PUT /Users/{id} with a SCIM 400, not a 500', async () => {
    const created = await send(
      'POST',
      '/api/scim/v2/Users',
      JSON.stringify({ schemas: [USER], userName: 'put@example.com' }),
    );
    const res = await send('PUT', `/api/scim/v2/Users/${created.json().id}`, deepUser('put@example.com', 5000));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ schemas: [ERROR], status: '400' });
  });

  // Found by the fuzzer (MySQL run): a PatchOp whose `op` is an array nested 5 000 levels deep.
  it('refuses a PATCH whose op is nested 5 000 levels deep with a SCIM 400, not a 500', async () => {
    const created = await send(
      'POST',
      '/api/scim/v2/Users',
      JSON.stringify({ schemas: [USER], userName: 'op@example.com' }),
    );
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/scim/v2/Users/${created.json().id}`,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/scim+json' },
      payload: `{"schemas":["${PATCH}"],"Operations":[{"op":${deep},"path":null,"value":"1"}]}`,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidSyntax' });
  });

  // Found by the fuzzer: a URL the router cannot read (here a stray `%`; the fuzzer met it with an over-long id on PUT) is refused
  // before the SCIM scope runs (src/api-scope.ts refuseUnroutableUrl), as problem+json.
  it('answers a URL the router cannot read (a stray %) with a SCIM error', async () => {
    const res = await send('GET', '/api/scim/v2/Users/%');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(res.json()).toMatchObject({ schemas: [ERROR], status: '400' });
  });

  // Found by the permission matrix: a PUT that keeps the group's name and sends no members, or a
  // PATCH that only sets externalId (which the door ignores), changes nothing and so checks no
  // permission — and answers the group with its members to a token holding no permission at all.
  it('does not show a group and its members to a token without roles.view through PUT or PATCH', async () => {
    const g = given(t.db);
    const member = await g.user({ name: 'Quiet Member' });
    const roleId = await g.role('Quiet Group', []);
    await t.db.models.UserRole.create({ user_id: member.id, role_id: roleId });
    const put = await nobody.put(`/Groups/g${roleId}`, { schemas: [GROUP], displayName: 'Quiet Group' });
    const patch = await nobody.patch(`/Groups/g${roleId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'externalId', value: 'x' }],
    });
    for (const res of [put, patch]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.body).not.toContain('Quiet Member');
    }
  });

  // Found by the fuzzer (a 500 in CI on SQLite, replayed on MariaDB): the filter's attribute
  // names were looked up as plain object keys, so "constructor" found Object.prototype's and the
  // translation threw. Names are read without regard to case, so the inherited names that can
  // arrive are the all-lower-case ones; each must be refused as any unknown attribute is.
  it.each([
    ['Groups', 'constructor lt "fuzz.test"'],
    ['Groups', 'members.constructor eq "1"'],
    ['Groups', '__proto__[value eq "1"]'],
    ['Users', 'Constructor pr'],
    ['Users', 'emails.__proto__ co "a"'],
    ['Users', 'name[constructor eq "x"]'],
  ])('refuses the inherited attribute name in %s?filter=%s with invalidFilter, not a 500', async (resource, filter) => {
    const res = await send('GET', `/api/scim/v2/${resource}?filter=${encodeURIComponent(filter)}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' });
  });
});
