import type { ImportNewResult } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiToken } from '../../src/auth/api-tokens.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GET /users/imports/new: the import page's choices, each decided by the rule the submission
 * applies, so that what the page offers is what POST /users/imports accepts — and what it refuses
 * is refused with the same code and sentence.
 */
let t: TestApp;
let admin: string;
let creator: string;
let updater: string;
let viewer: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  admin = await g.token((await g.user({ roles: ['admin'] })).id);
  // Creates users and holds what a viewer holds, nothing of a manager's or an administrator's extras.
  creator = await g.token((await g.user({ roles: ['viewer'], permissions: ['users.create'] })).id);
  updater = await g.token((await g.user({ roles: ['viewer'], permissions: ['users.create', 'users.update'] })).id);
  viewer = await g.token((await g.user({ roles: ['viewer'] })).id);
});
afterAll(() => t.close());

const get = (url: string, token?: string) => request(t.app, token ? { token } : {}).get(url);
const choicesOf = async (token: string): Promise<ImportNewResult> => {
  const res = await get('/api/users/imports/new', token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ImportNewResult;
};

/** A dry run of a one-line file with `query`, as `token`. */
const submit = (token: string, query: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/users/imports?dryRun=true&${query}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    payload: 'email\nsomeone@example.com\n',
  });

const ALLOWED = { allowed: true };

describe('GET /users/imports/new', () => {
  it('allows every mode and option, and every default role, to a caller holding every permission', async () => {
    const body = await choicesOf(admin);
    expect(body.modes).toEqual({ create: ALLOWED, upsert: ALLOWED });
    expect(body.options).toEqual({ inactive: ALLOWED, restore: ALLOWED });
    expect(body.defaultRoles.map((r) => [r.name, r.assignable])).toEqual([
      ['admin', true],
      ['manager', true],
      ['viewer', true],
    ]);
  });

  it('refuses upsert, inactive and restore to a caller with users.create only, in the words the submission uses', async () => {
    const { modes, options, defaultRoles } = await choicesOf(creator);
    expect(modes.create).toEqual(ALLOWED);
    expect(modes.upsert).toEqual({
      allowed: false,
      code: 'FORBIDDEN',
      message: 'You need the users.update permission to update existing users from a file (upsert).',
    });
    expect(options.inactive).toEqual({
      allowed: false,
      code: 'FORBIDDEN',
      message: 'You need the users.setActive permission to import users as inactive.',
    });
    expect(options.restore).toEqual({
      allowed: false,
      code: 'FORBIDDEN',
      message: 'You need the users.restore permission to restore deleted users from a file.',
    });
    const manager = defaultRoles.find((r) => r.name === 'manager');
    expect(manager).toMatchObject({
      assignable: false,
      reason:
        'You cannot grant or remove the role manager: it carries permissions you do not hold (users.update, users.export, users.setActive).',
    });
    expect(defaultRoles.find((r) => r.name === 'viewer')).toMatchObject({ assignable: true });

    // The submission refuses each refused choice with the very code and sentence, and takes the allowed ones.
    const refusals: Array<[string, { message?: string }, string]> = [
      ['mode=upsert', modes.upsert, 'users.update'],
      ['activate=false', options.inactive, 'users.setActive'],
      ['restore=true', options.restore, 'users.restore'],
    ];
    for (const [query, state, permission] of refusals) {
      const res = await submit(creator, query);
      expect(res.statusCode, query).toBe(403);
      expect(res.json(), query).toMatchObject({ code: 'FORBIDDEN', permission, detail: state.message });
    }
    const roles = await submit(creator, 'defaultRoles[]=manager');
    expect(roles.statusCode).toBe(403);
    expect(roles.json().detail).toBe(manager?.reason);
    expect((await submit(creator, 'mode=create&defaultRoles[]=viewer')).statusCode).toBe(202);
  });

  it('allows upsert to a caller holding users.update, and the submission takes it', async () => {
    const { modes, options } = await choicesOf(updater);
    expect(modes.upsert).toEqual(ALLOWED);
    expect(options.inactive.allowed).toBe(false);
    expect((await submit(updater, 'mode=upsert')).statusCode).toBe(202);
  });

  it('decides for what the request may do: a token narrowed to users.create gets no upsert, whoever owns it', async () => {
    const owner = await given(t.db).user({ roles: ['admin'] });
    const { token } = await mintApiToken(t.db, {
      userId: owner.id,
      name: 'narrow',
      expiresAt: null,
      scopes: ['users.view', 'users.create'],
    });
    const { modes, options } = await choicesOf(token);
    expect(modes.upsert).toMatchObject({ allowed: false, code: 'FORBIDDEN' });
    expect(options.restore.allowed).toBe(false);
    expect((await submit(token, 'mode=upsert')).json().detail).toBe(modes.upsert.message);
  });

  it('answers the same over tRPC', async () => {
    const rest = await choicesOf(creator);
    const res = await get('/api/trpc/imports.new', creator);
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data).toEqual(rest);
  });

  it('needs a caller (401) who may create users (403), at both doors', async () => {
    expect((await get('/api/users/imports/new')).statusCode).toBe(401);
    expect((await get('/api/trpc/imports.new')).statusCode).toBe(401);
    const res = await get('/api/users/imports/new', viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.create' });
    expect((await get('/api/trpc/imports.new', viewer)).statusCode).toBe(403);
  });
});
