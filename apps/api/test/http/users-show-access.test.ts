import type { ActionState } from '@app/contracts';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GivenUser, given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GET /users/{id} says how the user signs in (last sign-in, second factor) and what the caller
 * may do about it (invite, sendPasswordReset, resetTwoFactor), decided by the rules the writes
 * run: every refused state here is checked against the write's own answer, and every allowed one
 * by doing it.
 */

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

let t: TestApp;
let admin: string;
let manager: string;
let viewer: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  admin = await g.token((await g.user({ roles: ['admin'] })).id);
  manager = await g.token((await g.user({ roles: ['manager'] })).id);
  viewer = await g.token((await g.user({ roles: ['viewer'] })).id);
});
afterAll(() => t.close());

interface SignIn {
  last_sign_in_at: string | null;
  two_factor: { enrolled: boolean; required: boolean };
  invite: ActionState;
  sendPasswordReset: ActionState;
  resetTwoFactor: ActionState;
}

/** The show item's sign-in fields as `token` gets them. */
async function signInOf(id: number, token = admin, query = ''): Promise<SignIn> {
  const res = await request(t.app, { token }).get(`/api/users/${id}${query}`);
  expect(res.statusCode).toBe(200);
  const { last_sign_in_at, two_factor, actions } = res.json().item;
  // The record's five stay beside the three.
  expect(Object.keys(actions).sort()).toEqual(
    ['delete', 'forceDelete', 'invite', 'resetTwoFactor', 'restore', 'sendPasswordReset', 'setActive', 'update'].sort(),
  );
  const { invite, sendPasswordReset, resetTwoFactor } = actions;
  return { last_sign_in_at, two_factor, invite, sendPasswordReset, resetTwoFactor };
}

/** What each write answers `token` for this user: status and code. */
async function writes(id: number, token = admin) {
  const as = request(t.app, { token });
  const answer = async (res: Awaited<ReturnType<typeof as.get>>) => ({
    status: res.statusCode,
    code: res.statusCode < 300 ? undefined : (res.json().code as string),
  });
  return {
    invite: await answer(await as.post(`/api/users/${id}/invite`)),
    sendPasswordReset: await answer(await as.post(`/api/users/${id}/password-reset`)),
    resetTwoFactor: await answer(await as.delete(`/api/users/${id}/two-factor`)),
  };
}

/** Signs in, sets up and confirms a second factor. */
async function enrol(user: GivenUser): Promise<void> {
  const cookie = await loginCookie(t.app, user.email, user.password);
  const setup = await request(t.app, { cookie }).post('/api/account/two-factor');
  expect(setup.statusCode).toBe(200);
  const confirmed = await request(t.app, { cookie }).post('/api/account/two-factor/confirm', {
    code: codeAt(setup.json().secret, Date.now()),
  });
  expect(confirmed.statusCode).toBe(200);
}

const refused = (code: string, message: string) => ({ allowed: false, code, message });
const noSecondFactor = refused('TWO_FACTOR_NOT_ENROLLED', 'This user has no second factor to reset.');

describe('GET /users/{id}: sign-in access', () => {
  it('an active account that never signed in: may be invited and sent a reset, has no second factor', async () => {
    const ann = await given(t.db).user({ name: 'Ann Never', roles: ['viewer'] });
    expect(await signInOf(ann.id)).toEqual({
      last_sign_in_at: null,
      two_factor: { enrolled: false, required: false },
      invite: { allowed: true },
      sendPasswordReset: { allowed: true },
      resetTwoFactor: noSecondFactor,
    });
    const done = await writes(ann.id);
    expect(done.invite.status).toBe(202);
    expect(done.sendPasswordReset.status).toBe(202);
    expect(done.resetTwoFactor).toMatchObject({ status: 409, code: 'TWO_FACTOR_NOT_ENROLLED' });
    // Invited and not signed in yet: the invitation may be sent again.
    expect((await signInOf(ann.id)).invite).toEqual({ allowed: true });
  });

  it('an account that signed in (an imported password, never invited): no invitation, a reset link', async () => {
    const bob = await given(t.db).user({ name: 'Bob Signed', roles: ['viewer'] });
    const before = Date.now();
    await loginCookie(t.app, bob.email, bob.password);
    const state = await signInOf(bob.id);
    expect(state.last_sign_in_at).not.toBeNull();
    expect(Date.parse(state.last_sign_in_at as string)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(state.invite).toEqual(
      refused('ALREADY_SIGNED_IN', 'Bob Signed has already signed in: send a password reset instead of an invitation.'),
    );
    expect(state.sendPasswordReset).toEqual({ allowed: true });
    const done = await writes(bob.id);
    expect(done.invite).toMatchObject({ status: 422, code: 'ALREADY_SIGNED_IN' });
    expect(done.sendPasswordReset.status).toBe(202);
  });

  it('an inactive account: neither an invitation nor a reset link', async () => {
    const cy = await given(t.db).user({ name: 'Cy Off', roles: ['viewer'], active: false });
    expect(await signInOf(cy.id)).toEqual({
      last_sign_in_at: null,
      two_factor: { enrolled: false, required: false },
      invite: refused('NOT_ACTIVE', 'Cy Off is not active: activate the account before inviting them.'),
      sendPasswordReset: refused(
        'NOT_ACTIVE',
        'Cy Off is not active: activate the account before sending a password reset.',
      ),
      resetTwoFactor: noSecondFactor,
    });
    const done = await writes(cy.id);
    expect(done.invite).toMatchObject({ status: 422, code: 'NOT_ACTIVE' });
    expect(done.sendPasswordReset).toMatchObject({ status: 422, code: 'NOT_ACTIVE' });
  });

  it('a deleted account (seen with the trash): nothing until it is restored', async () => {
    const dee = await given(t.db).user({ name: 'Dee Gone', roles: ['viewer'], active: false, deleted: true });
    const gone = refused('NOT_FOUND', 'Dee Gone is deleted: restore the account first.');
    expect(await signInOf(dee.id, admin, '?withTrashed=true')).toMatchObject({
      invite: gone,
      sendPasswordReset: gone,
      resetTwoFactor: gone,
    });
    const done = await writes(dee.id);
    expect(done.invite).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(done.sendPasswordReset).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(done.resetTwoFactor).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('a viewer is refused all three for the permission, and sees the facts', async () => {
    const eve = await given(t.db).user({ name: 'Eve Viewed', roles: ['viewer'] });
    await enrol(eve);
    const forbidden = refused('FORBIDDEN', 'You need the users.update permission to do this.');
    const state = await signInOf(eve.id, viewer);
    expect(state).toMatchObject({
      two_factor: { enrolled: true, required: false },
      invite: forbidden,
      sendPasswordReset: forbidden,
      resetTwoFactor: forbidden,
    });
    expect(state.last_sign_in_at).not.toBeNull();
    const done = await writes(eve.id, viewer);
    for (const write of Object.values(done)) expect(write).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });

  it('an administrator seen by a manager: refused for the ceiling', async () => {
    const fay = await given(t.db).user({ name: 'Fay Boss', roles: ['admin'] });
    await enrol(fay);
    const state = await signInOf(fay.id, manager);
    for (const action of ['invite', 'sendPasswordReset', 'resetTwoFactor'] as const) {
      expect(state[action]).toMatchObject({ allowed: false, code: 'OUTRANKED' });
      expect(state[action].message).toMatch(/^Fay Boss holds permissions you do not have \(/);
    }
    const done = await writes(fay.id, manager);
    for (const write of Object.values(done)) expect(write).toMatchObject({ status: 403, code: 'OUTRANKED' });
  });

  it('an enrolled user: the reset is offered, and once done is refused as the route refuses it', async () => {
    const gil = await given(t.db).user({ name: 'Gil Phone', roles: ['viewer'] });
    await enrol(gil);
    expect(await signInOf(gil.id)).toMatchObject({
      two_factor: { enrolled: true, required: false },
      resetTwoFactor: { allowed: true },
    });
    expect((await request(t.app, { token: admin }).delete(`/api/users/${gil.id}/two-factor`)).statusCode).toBe(204);
    expect(await signInOf(gil.id)).toMatchObject({
      two_factor: { enrolled: false, required: false },
      resetTwoFactor: noSecondFactor,
    });
  });

  it('a set-up still waiting for its code is not enrolled, and may be reset as the route allows', async () => {
    const hal = await given(t.db).user({ name: 'Hal Halfway', roles: ['viewer'] });
    const cookie = await loginCookie(t.app, hal.email, hal.password);
    expect((await request(t.app, { cookie }).post('/api/account/two-factor')).statusCode).toBe(200);
    expect(await signInOf(hal.id)).toMatchObject({
      two_factor: { enrolled: false, required: false },
      resetTwoFactor: { allowed: true },
    });
    expect((await request(t.app, { token: admin }).delete(`/api/users/${hal.id}/two-factor`)).statusCode).toBe(204);
  });

  it('a role requiring a second factor: required, whether enrolled or not, on both doors', async () => {
    await given(t.db).role('on-call', ['users.view']);
    await t.db.sequelize.query(`UPDATE roles SET require_two_factor = 1 WHERE name = 'on-call'`);
    const ivy = await given(t.db).user({ name: 'Ivy Required', roles: ['on-call'] });
    expect((await signInOf(ivy.id)).two_factor).toEqual({ enrolled: false, required: true });
    // What the member is told about themselves is what their page says.
    const cookie = await loginCookie(t.app, ivy.email, ivy.password);
    expect((await request(t.app, { cookie }).get('/api/auth/me')).json().two_factor).toEqual({
      enrolled: false,
      required: true,
    });
    await enrol(ivy);
    expect((await signInOf(ivy.id)).two_factor).toEqual({ enrolled: true, required: true });

    const input = encodeURIComponent(JSON.stringify({ id: ivy.id }));
    const trpc = await request(t.app, { token: admin }).get(`/api/trpc/users.show?input=${input}`);
    expect(trpc.statusCode).toBe(200);
    const item = trpc.json().result.data.item;
    expect(item.two_factor).toEqual({ enrolled: true, required: true });
    expect(item.last_sign_in_at).toEqual(expect.any(String));
    expect(item.actions.resetTwoFactor).toEqual({ allowed: true });
    expect(item.actions.invite).toMatchObject({ allowed: false, code: 'ALREADY_SIGNED_IN' });
  });

  it('list rows keep their five record actions', async () => {
    const res = await request(t.app, { token: admin }).get('/api/users?per_page=1');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().rows[0].actions).sort()).toEqual(
      ['delete', 'forceDelete', 'restore', 'setActive', 'update'].sort(),
    );
  });
});
