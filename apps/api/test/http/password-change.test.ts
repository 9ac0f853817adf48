import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { editedBody, usersApi } from '../support/users-api.js';

/**
 * Finding 7: a password change left the account's existing sessions and API tokens working, so
 * whoever held the old password kept the access it gave. Now the change ends them in its own
 * transaction; users changing their own password keep the session (or token) they used.
 */
let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  adminToken = await g.token((await g.user({ roles: ['admin'] })).id);
});
afterAll(() => t.close());

const me = (who: { cookie?: string; token?: string }) => request(t.app, who).get('/api/auth/me');
const newPassword = { password: 'brand-new-pass-1', password_confirmation: 'brand-new-pass-1' };

/** A user signed in twice (two browsers) and holding an API token. */
async function signedInUser(roles: string[] = ['viewer']) {
  const g = given(t.db);
  const user = await g.user({ roles });
  return {
    ...user,
    cookies: [await loginCookie(t.app, user.email, user.password), await loginCookie(t.app, user.email, user.password)],
    token: await g.token(user.id),
  };
}

describe('changing a password', () => {
  it('through REST ends every session and token of the user, audited without the password', async () => {
    const ann = await signedInUser();
    const admin = usersApi(t.app, adminToken);
    const res = await admin.update(ann.id, await editedBody(admin, ann.id, newPassword));
    expect(res.statusCode).toBe(200);
    for (const cookie of ann.cookies) expect((await me({ cookie })).statusCode).toBe(401);
    expect((await me({ token: ann.token })).statusCode).toBe(401);
    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'user.update' }, order: [['id', 'DESC']] });
    expect(audit?.context).toMatchObject({ passwordChanged: true, sessionsEnded: 2, tokensRevoked: 1 });
    expect(JSON.stringify(audit?.get())).not.toContain('brand-new-pass-1');
    // The new password works.
    expect(
      (await request(t.app).post('/api/auth/login', { email: ann.email, password: newPassword.password })).statusCode,
    ).toBe(200);
  });

  it('through tRPC does the same', async () => {
    const bob = await signedInUser();
    const admin = usersApi(t.app, adminToken);
    const body = await editedBody(admin, bob.id, newPassword);
    const res = await request(t.app, { token: adminToken }).post('/api/trpc/users.update', { id: bob.id, ...body });
    expect(res.statusCode).toBe(200);
    for (const cookie of bob.cookies) expect((await me({ cookie })).statusCode).toBe(401);
    expect((await me({ token: bob.token })).statusCode).toBe(401);
  });

  it('of one’s own account keeps the session used and ends the others', async () => {
    const cy = await signedInUser(['manager']);
    const [used, other] = cy.cookies as [string, string];
    const self = request(t.app, { cookie: used });
    const { item } = (await self.get(`/api/users/${cy.id}/edit`)).json();
    const res = await self.put(`/api/users/${cy.id}`, {
      name: item.name,
      email: item.email,
      version: item.version,
      ...newPassword,
    });
    expect(res.statusCode).toBe(200);
    expect((await me({ cookie: used })).statusCode).toBe(200);
    expect((await me({ cookie: other })).statusCode).toBe(401);
    expect((await me({ token: cy.token })).statusCode).toBe(401);
  });

  it('of one’s own account with an API token keeps that token and ends the rest', async () => {
    const dee = await signedInUser(['manager']);
    const spare = await given(t.db).token(dee.id);
    const self = usersApi(t.app, dee.token);
    expect((await self.update(dee.id, await editedBody(self, dee.id, newPassword))).statusCode).toBe(200);
    expect((await me({ token: dee.token })).statusCode).toBe(200);
    expect((await me({ token: spare })).statusCode).toBe(401);
    for (const cookie of dee.cookies) expect((await me({ cookie })).statusCode).toBe(401);
  });

  it('leaves sessions alone when the password is not changed', async () => {
    const eve = await signedInUser();
    const admin = usersApi(t.app, adminToken);
    expect((await admin.update(eve.id, await editedBody(admin, eve.id, { name: 'Eve Renamed' }))).statusCode).toBe(200);
    for (const cookie of eve.cookies) expect((await me({ cookie })).statusCode).toBe(200);
    expect((await me({ token: eve.token })).statusCode).toBe(200);
  });
});
