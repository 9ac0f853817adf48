import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * An endpoint's URL is one rule at both doors (REST and tRPC, create and update): an http(s)
 * IRI, stored as the URI it maps to (an internationalised host as its punycode), or a 422 that
 * says what is wrong with the `url` field. The refused ones are the API fuzzer's findings.
 */
let t: TestApp;
let admin: ReturnType<typeof request>;
let existing: number;

const body = (url: string) => ({ url, description: 'x', events: ['user.created'] });

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  admin = request(t.app, { token: await g.token((await g.user({ roles: ['admin'] })).id) });
  existing = (await admin.post('/api/webhooks', body('https://hooks.example.com/first'))).json().item.id;
});
afterAll(() => t.close());

const doors = {
  'POST /webhooks': (url: string) => admin.post('/api/webhooks', body(url)),
  'PUT /webhooks/{id}': (url: string) => admin.put(`/api/webhooks/${existing}`, body(url)),
  'tRPC webhooks.create': (url: string) => admin.post('/api/trpc/webhooks.create', body(url)),
  'tRPC webhooks.update': (url: string) => admin.post('/api/trpc/webhooks.update', { id: existing, ...body(url) }),
};

/** The field errors of a refusal, from either door's envelope. */
const fieldErrors = (res: LightMyRequestResponse): Record<string, string[]> => {
  const json = res.json();
  return (json.errors ?? json.error?.data?.errors ?? {}) as Record<string, string[]>;
};
const storedUrl = (res: LightMyRequestResponse): string => {
  const json = res.json();
  return (json.item ?? json.result?.data?.item)?.url;
};

describe.each(Object.entries(doors))('%s', (_door, send) => {
  it.each([
    ['http://bücher.example/', 'http://xn--bcher-kva.example/'],
    ['https://BÜCHER.example/hooks?q=1', 'https://xn--bcher-kva.example/hooks?q=1'],
    ['https://hooks.example.com/bücher?ü=1', 'https://hooks.example.com/b%C3%BCcher?%C3%BC=1'],
    ['https://hooks.example.com/users', 'https://hooks.example.com/users'],
  ])('stores %s as %s', async (url, stored) => {
    const res = await send(url);
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(storedUrl(res)).toBe(stored);
    const id = (res.json().item ?? res.json().result.data.item).id;
    expect((await t.db.models.Webhook.findByPk(id))?.url).toBe(stored);
  });

  it.each([
    ['http://example.com/a b', /space/],
    ['http://ex{am}ple.com/', /“\{”/],
    ['HtTp://{¬Ⱦç', /“\{”/],
    ['https://hooks.example.com/a|b', /“\|”.*%7C/],
    ['https://hooks.example.com/%zz', /%25/],
    ['http:hooks.example.com/x', /absolute URL/],
    ['https://hooks.example.com:99999/', /port/],
  ])('refuses %s with 422 and a field error on url', async (url, message) => {
    const before = await t.db.models.Webhook.count();
    const res = await send(url);
    expect(res.statusCode, res.body).toBe(422);
    expect(fieldErrors(res).url?.[0]).toMatch(message);
    expect(await t.db.models.Webhook.count()).toBe(before);
  });
});

describe('the URL as stored is what the server guards', () => {
  it.each(['http://ｌｏｃａｌｈｏｓｔ/hooks', 'http://127。0。0。1/hooks', 'http://①②⑦.0.0.1/hooks'])(
    'refuses %s: its host is this server written another way',
    async (url) => {
      const res = await admin.post('/api/webhooks', body(url));
      expect(res.statusCode, res.body).toBe(422);
      expect(fieldErrors(res).url?.[0]).toMatch(/refused/);
    },
  );
});
