import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { editedBody, usersApi } from '../support/users-api.js';

let t: TestApp;
const lines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  // The production logger, at its most talkative level.
  t = await startTestApp({}, createLogger('trace', sink));
});
afterAll(() => t.close());

describe('secrets', () => {
  it('never appear in a response, a log line or an audit row', async () => {
    const g = given(t.db);
    const admin = await g.user({ roles: ['admin'] });
    const token = await g.token(admin.id);
    const api = usersApi(t.app, token);
    const responses: string[] = [];
    const created = await api.create({
      name: 'Secretive',
      email: 'secretive@example.com',
      password: 'first-Secret-1234',
      password_confirmation: 'first-Secret-1234',
    });
    responses.push(created.body);
    const id = created.json().item.id;
    responses.push(
      (
        await api.update(
          id,
          await editedBody(api, id, { password: 'second-Secret-5678', password_confirmation: 'second-Secret-5678' }),
        )
      ).body,
    );
    responses.push(
      (await request(t.app).post('/api/auth/login', { email: 'secretive@example.com', password: 'second-Secret-5678' }))
        .body,
    );
    responses.push(
      (await request(t.app).post('/api/auth/login', { email: 'secretive@example.com', password: 'wrong-Secret-0000' }))
        .body,
    );
    responses.push((await api.show(id, '?with[]=roles&append[]=permission_names')).body);
    responses.push((await api.list('?q=secretive')).body);
    responses.push((await api.edit(id)).body);
    const audit = JSON.stringify(await t.db.models.AuditLog.findAll({ raw: true }));
    const hash = (await t.db.models.User.scope('withPassword').findByPk(id))?.password_hash as string;
    for (const [where, text] of [
      ['responses', responses.join('\n')],
      ['logs', lines.join('')],
      ['audit', audit],
    ] as const) {
      for (const secret of ['first-Secret-1234', 'second-Secret-5678', 'wrong-Secret-0000', hash, token, 'scrypt$']) {
        expect(text.includes(secret), `${where} contain ${secret.slice(0, 12)}`).toBe(false);
      }
    }
    expect(lines.length).toBeGreaterThan(10);
  });
});
