import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Found by a probe: a lone surrogate in a token name, a user's name or a webhook description was
 * a 500 on MariaDB (JSON.stringify writes it as the escape `\ud800`, which the audit columns'
 * JSON_VALID check refuses) and was stored as U+FFFD on SQLite; NUL, C1 controls, direction
 * overrides and zero-width characters were stored and shown. Every free-text field now refuses
 * them with 422 naming the field, at every door, and nothing is stored.
 */
let t: TestApp;
let token: string;
/** A viewer's session: any signed-in user may make tokens. */
let viewerCookie: string;
let userId: number;
let webhookId: number;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  const admin = await g.user({ roles: ['admin'], name: 'Text Admin' });
  token = await g.token(admin.id);
  const viewer = await g.user({ roles: ['viewer'] });
  viewerCookie = await loginCookie(t.app, viewer.email, viewer.password);
  userId = (await g.user({ name: 'Plain Name' })).id;
  const hook = await request(t.app, { token }).post('/api/webhooks', {
    url: 'https://hooks.example.com/text',
    description: 'plain',
    events: ['user.created'],
  });
  expect(hook.statusCode, hook.body).toBe(201);
  webhookId = hook.json().item.id;
});
afterAll(() => t.close());

/** The characters a free-text field refuses, as a reader names them. */
const REFUSED: Array<[string, string]> = [
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', '\udc00'],
  ['NUL', '\u0000'],
  ['a C1 control (NEL)', '\u0085'],
  ['a right-to-left override', '\u202e'],
  ['a first-strong isolate', '\u2068'],
  ['a zero-width space', '\u200b'],
];
/** The ones a URL can carry as UTF-8 (a lone surrogate has no UTF-8 form). */
const IN_URLS = REFUSED.filter(([, c]) => !/[\ud800-\udfff]/.test(c));

const REFUSAL = /invisible or control character \(U\+[0-9A-F]{4}\)/;

/**
 * Sends `body` as JSON text: JSON.stringify writes a lone surrogate as the escape `\ud800`, as any
 * client would, and NUL as `\u0000`.
 */
function send(method: 'POST' | 'PUT', url: string, body: Record<string, unknown>, auth?: Record<string, string>) {
  const text = JSON.stringify(body);
  const headers = { ...(auth ?? { authorization: `Bearer ${token}` }), 'content-type': 'application/json' };
  return t.app.inject({ method, url, headers, payload: text });
}

function expectRefused(res: LightMyRequestResponse, field: string) {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().code).toBe('VALIDATION_FAILED');
  expect(res.json().errors[field]?.[0]).toMatch(REFUSAL);
}

function expectRefusedTrpc(res: LightMyRequestResponse, field: string) {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().error.data.code).toBe('VALIDATION_FAILED');
  expect(res.json().error.data.errors[field]?.[0]).toMatch(REFUSAL);
}

describe.each(REFUSED)('free text holding %s', (_name, c) => {
  it('POST /tokens refuses it in the name and makes no token', async () => {
    const before = await t.db.models.ApiToken.count();
    const res = await send('POST', '/api/tokens', { name: `tok${c}` }, { cookie: viewerCookie });
    expectRefused(res, 'name');
    expect(await t.db.models.ApiToken.count()).toBe(before);
  });

  it('POST /users refuses it in the name and makes no user', async () => {
    const email = `text-${c.codePointAt(0)}@example.com`;
    const res = await send('POST', '/api/users', {
      name: `Mallory${c}txt.exe`,
      email,
      password: 'long-enough-1',
      password_confirmation: 'long-enough-1',
    });
    expectRefused(res, 'name');
    expect(await t.db.models.User.count({ where: { email } })).toBe(0);
  });

  it('PUT /users/{id} refuses it in the name and leaves the user as it was', async () => {
    const { item } = (await request(t.app, { token }).get(`/api/users/${userId}/edit`)).json();
    const res = await send('PUT', `/api/users/${userId}`, {
      name: `Plain${c}Name`,
      email: item.email,
      version: item.version,
    });
    expectRefused(res, 'name');
    expect((await t.db.models.User.findByPk(userId))?.name).toBe('Plain Name');
  });

  it('POST and PUT /webhooks refuse it in the description and store nothing', async () => {
    const before = await t.db.models.Webhook.count();
    const body = { url: 'https://hooks.example.com/x', description: `CRM${c}sync`, events: ['user.created'] };
    expectRefused(await send('POST', '/api/webhooks', body), 'description');
    expect(await t.db.models.Webhook.count()).toBe(before);
    expectRefused(await send('PUT', `/api/webhooks/${webhookId}`, body), 'description');
    expect((await t.db.models.Webhook.findByPk(webhookId))?.description).toBe('plain');
  });

  it('tRPC refuses it in tokens.create, users.create, users.update and webhooks.create', async () => {
    const { item } = (await request(t.app, { token }).get(`/api/users/${userId}/edit`)).json();
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['tokens.create', { name: `tok${c}` }, 'name'],
      [
        'users.create',
        {
          name: `a${c}`,
          email: 'trpc-text@example.com',
          password: 'long-enough-1',
          password_confirmation: 'long-enough-1',
        },
        'name',
      ],
      ['users.update', { id: userId, name: `b${c}`, email: item.email, version: item.version }, 'name'],
      [
        'webhooks.create',
        { url: 'https://hooks.example.com/y', description: `d${c}`, events: ['user.created'] },
        'description',
      ],
    ];
    for (const [path, input, field] of calls) expectRefusedTrpc(await send('POST', `/api/trpc/${path}`, input), field);
    expect(await t.db.models.User.count({ where: { email: 'trpc-text@example.com' } })).toBe(0);
    expect((await t.db.models.User.findByPk(userId))?.name).toBe('Plain Name');
  });

  it('a list search refuses it through the tRPC door (JSON input)', async () => {
    const input = encodeURIComponent(JSON.stringify({ q: `a${c}b` }));
    expectRefusedTrpc(await request(t.app, { token }).get(`/api/trpc/users.list?input=${input}`), 'q');
  });
});

describe.each(IN_URLS)('a list query holding %s', (_name, c) => {
  const v = encodeURIComponent(`a${c}b`);
  it.each([
    [`/api/users?q=${v}`, 'q'],
    [`/api/users?filters[name]=${v}`, 'filters.name'],
    [`/api/users?filters[email]=${v}`, 'filters.email'],
    [`/api/users/export?format=csv&q=${v}`, 'q'],
    [`/api/audit?q=${v}`, 'q'],
    [`/api/audit?filters[ip]=${v}`, 'filters.ip'],
  ])('is refused with 422 naming the field: %s', async (url, field) => {
    expectRefused(await request(t.app, { token }).get(url), field);
  });

  it('is refused in a delivery log search', async () => {
    expectRefused(await request(t.app, { token }).get(`/api/webhooks/${webhookId}/deliveries?q=${v}`), 'q');
  });
});

describe('ordinary text', () => {
  const names = ["Zoë O'Brien-Łukasiewicz", '李小龍', 'Ann 😀', 'Family 👨‍👩‍👧', 'علی‌رضا', 'Ⅻ Ｆｕｌｌ'];

  it.each(names)('is stored and shown as typed: %s', async (name) => {
    const res = await send('POST', '/api/tokens', { name });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().item.name).toBe(name);
    expect((await t.db.models.ApiToken.findByPk(res.json().item.id))?.name).toBe(name);
    const search = await request(t.app, { token }).get(`/api/users?q=${encodeURIComponent(name)}`);
    expect(search.statusCode).toBe(200);
  });

  it('keeps a user name with accents, CJK and an emoji pair', async () => {
    const res = await send('POST', '/api/users', {
      name: 'Renée 王 😀',
      email: 'renee-text@example.com',
      password: 'long-enough-1',
      password_confirmation: 'long-enough-1',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await t.db.models.User.findByPk(res.json().item.id))?.name).toBe('Renée 王 😀');
  });
});
