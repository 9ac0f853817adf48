import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withChangeLease } from '../../src/modules/attributes/attributes.change-lease.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A schema change and the writers of the attribute it changes (issue 38): while the change walks
 * the stored values, no door may write one (it could slip past the walk's judgement); a second
 * change waits its turn; a lease left by a change that died lapses by itself.
 */

let t: TestApp;
let admin: ReturnType<typeof request>;
let userId: number;

const BUSY_FIELD = 'Department is being changed by an administrator right now. Try again in a minute.';

beforeAll(async () => {
  t = await startTestApp();
  const a = await given(t.db).user({ roles: ['admin'] });
  admin = request(t.app, { token: await given(t.db).token(a.id) });
  const declared = await admin.post('/api/attributes', {
    key: 'department',
    label: 'Department',
    type: 'string',
    sensitivity: 'none',
  });
  expect(declared.statusCode).toBe(201);
  userId = (await given(t.db).user()).id;
});
afterAll(() => t.close());

async function setDepartment(value: string) {
  const edit = (await admin.get(`/api/users/${userId}/edit`)).json().item;
  return admin.put(`/api/users/${userId}`, {
    name: edit.name,
    email: edit.email,
    version: edit.version,
    attributes: { department: value },
  });
}

const definition = {
  label: 'Department',
  type: 'string',
  sensitivity: 'none',
  validators: { max_length: 20 },
};

describe('the change lease', () => {
  it('refuses writes of the attribute and a second change while a change walks its values', async () => {
    let during: Record<'write' | 'change' | 'removal', Awaited<ReturnType<typeof setDepartment>>> | undefined;
    // The work stops short of writing a definition (which would end the lease): it fails instead.
    await expect(
      withChangeLease(t.db, 'department', async () => {
        const write = await setDepartment('Sales');
        const change = await admin.put('/api/attributes/department', definition);
        const removal = await admin.delete('/api/attributes/department');
        during = { write, change, removal };
        throw new Error('stopped before the definition');
      }),
    ).rejects.toThrow('stopped before the definition');
    if (!during) throw new Error('the work did not run');
    expect(during.write.statusCode).toBe(422);
    expect(during.write.json().errors).toEqual({ 'attributes.department': [BUSY_FIELD] });
    expect(during.change.statusCode).toBe(409);
    expect(during.change.json().code).toBe('ATTRIBUTE_BUSY');
    expect(during.removal.json().code).toBe('ATTRIBUTE_BUSY');
  });

  it('ends with the change that wrote the definition, and writes are judged by the new one', async () => {
    const changed = await admin.put('/api/attributes/department', definition);
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await setDepartment('Sales')).statusCode).toBe(200);
    const tooLong = await setDepartment('Sales and Marketing, EMEA');
    expect(tooLong.json().errors).toEqual({
      'attributes.department': ['Department can be at most 20 characters long.'],
    });
  });

  it('ends when the change fails, and lapses when its instance dies', async () => {
    await expect(
      withChangeLease(t.db, 'department', async () => {
        throw new Error('the walk failed');
      }),
    ).rejects.toThrow('the walk failed');
    expect((await setDepartment('Support')).statusCode).toBe(200);
    // A lease whose renewals stopped: its instant has passed.
    await t.db.sequelize.query("UPDATE attributes SET changing_until = :past WHERE `key` = 'department'", {
      replacements: { past: new Date(Date.now() - 1_000) },
    });
    expect((await setDepartment('Legal')).statusCode).toBe(200);
  });
});
