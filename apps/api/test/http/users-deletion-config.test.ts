import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

/**
 * The "only inactive users may be deleted" rule is configuration: what the server offers on a
 * row and what it does on the write follow the same setting, so a client that shows the
 * server's `actions` never disagrees with it.
 */
describe.each([
  { requireInactive: 'true', offered: false },
  { requireInactive: 'false', offered: true },
])('with USERS_DELETION_REQUIRE_INACTIVE=$requireInactive', ({ requireInactive, offered }) => {
  let t: TestApp;
  let admin: ReturnType<typeof usersApi>;

  beforeAll(async () => {
    t = await startTestApp({ USERS_DELETION_REQUIRE_INACTIVE: requireInactive });
    admin = usersApi(t.app, await given(t.db).token((await given(t.db).user({ roles: ['admin'] })).id));
  });
  afterAll(() => t.close());

  it(`${offered ? 'offers and performs' : 'refuses, with its reason,'} the deletion of an active user`, async () => {
    const active = await given(t.db).user({ name: 'Active Person' });
    const row = (await admin.list('?filters[name]=Active%20Person')).json().rows[0];
    const item = (await admin.show(active.id)).json().item;
    const res = await admin.remove(active.id);
    if (offered) {
      expect(row.actions.delete).toEqual({ allowed: true });
      expect(item.actions.delete).toEqual({ allowed: true });
      expect(res.statusCode).toBe(204);
      expect((await admin.show(active.id)).statusCode).toBe(404);
    } else {
      const refusal = {
        allowed: false,
        code: 'NOT_INACTIVE',
        message: 'Active Person is active: deactivate the account before deleting it.',
      };
      expect(row.actions.delete).toEqual(refusal);
      expect(item.actions.delete).toEqual(refusal);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'NOT_INACTIVE', detail: refusal.message });
    }
  });
});
