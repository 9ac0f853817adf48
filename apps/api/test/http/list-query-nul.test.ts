import { refusedTextMessage } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Found by the fuzzer (test/fuzz): a NUL (U+0000) in a search term or a text filter was a 500
 * on SQLite, which reads a statement as a C string, so the NUL inside the quoted term ended it
 * ("unrecognized token"). Every list query now refuses one with 422, on both engines and doors,
 * as it refuses every character the text rule refuses (text-input.test.ts).
 */
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  token = await g.token((await g.user({ roles: ['admin'] })).id);
});
afterAll(() => t.close());

const nul = encodeURIComponent('a\u0000b');
const message = (field: string) => refusedTextMessage(field === 'q' ? 'search' : 'filter', '\u0000');

describe('a NUL in a list query', () => {
  it.each([
    [`/api/users?q=${nul}`, 'q'],
    [`/api/users?filters[name]=${nul}`, 'filters.name'],
    [`/api/users?filters[email]=${nul}`, 'filters.email'],
    [`/api/users/selected?q=${nul}`, 'q'],
    [`/api/users/export?format=csv&filters[name]=${nul}`, 'filters.name'],
    [`/api/audit?q=${nul}`, 'q'],
    [`/api/audit?filters[ip]=${nul}`, 'filters.ip'],
    [`/api/audit/export?q=${nul}`, 'q'],
  ])('is refused with 422 naming the field: %s', async (url, field) => {
    const res = await request(t.app, { token }).get(url);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { [field]: [message(field)] } });
  });

  it('is refused through the tRPC door too', async () => {
    const input = encodeURIComponent(JSON.stringify({ q: '\u0000' }));
    const res = await request(t.app, { token }).get(`/api/trpc/users.list?input=${input}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toMatchObject({ code: 'VALIDATION_FAILED', errors: { q: [message('q')] } });
  });

  it('refuses the other control characters too', async () => {
    expect((await request(t.app, { token }).get(`/api/users?q=${encodeURIComponent('a\u0001b')}`)).statusCode).toBe(
      422,
    );
  });
});
