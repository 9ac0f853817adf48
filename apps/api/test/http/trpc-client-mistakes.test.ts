import { ERROR_CODES, ERRORS, type ErrorCode } from '@app/contracts';
import type { AnyProcedure } from '@trpc/server';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../src/app/app-router.js';
import { given } from '../support/given.js';
import { loginCookie, type Caller } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Every mistake a tRPC caller can make, sent to every procedure of the router (read from the
 * router itself, so a procedure added later is covered), anonymous and signed in. Each must be
 * a 4xx in tRPC's error envelope carrying a contract code, never a 5xx, and must not run the
 * procedure.
 */
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).map(
  ([path, p]) => ({ path, type: p._def.type as 'query' | 'mutation', takesInput: p._def.inputs.length > 0 }),
);
type Procedure = (typeof procedures)[number];

interface Mistake {
  name: string;
  request: InjectOptions;
  /** Exact where the door answers before any guard; any 4xx where a guard may answer first. */
  status: number | '4xx';
  batch?: boolean;
}

const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const OVER_ONE_MB = JSON.stringify({ padding: 'x'.repeat(1024 * 1024) });
const MULTIPART = ['--b', 'Content-Disposition: form-data; name="0"', '', '{}', '--b--', ''].join('\r\n');

function post(url: string, contentType: string | undefined, payload: string | Buffer): InjectOptions {
  return { method: 'POST', url, payload, headers: contentType ? { 'content-type': contentType } : {} };
}

function mistakesFor({ path, type, takesInput }: Procedure): Mistake[] {
  const url = `/api/trpc/${path}`;
  const send = (input: unknown, batch = false): InjectOptions => {
    const at = batch ? `${url}?batch=1` : url;
    return type === 'query'
      ? { method: 'GET', url: `${at}${batch ? '&' : '?'}input=${json(input)}` }
      : post(at, 'application/json', JSON.stringify(input));
  };
  const mistakes: Mistake[] = [
    type === 'query'
      ? { name: 'POST to a query', request: post(url, 'application/json', '{}'), status: 405 }
      : { name: 'GET to a mutation', request: { method: 'GET', url: `${url}?input=${json({})}` }, status: 405 },
    ...(['PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const).map((method) => ({
      name: method,
      request: { method, url, payload: '{}', headers: { 'content-type': 'application/json' } },
      status: 405,
    })),
    { name: 'text/plain body', request: post(url, 'text/plain', '{}'), status: 415 },
    { name: 'form body', request: post(url, 'application/x-www-form-urlencoded', 'a=1'), status: 415 },
    { name: 'multipart body', request: post(url, 'multipart/form-data; boundary=b', MULTIPART), status: 415 },
    { name: 'body without a content type', request: post(url, undefined, Buffer.from('{}')), status: 415 },
    { name: 'malformed JSON body', request: post(url, 'application/json', '{"id":'), status: 400 },
    { name: 'body over 1 MB', request: post(url, 'application/json', OVER_ONE_MB), status: 413 },
    { name: 'input that is not JSON', request: { method: 'GET', url: `${url}?input=not-json` }, status: 400 },
    {
      name: 'batch input not JSON',
      request: { method: 'GET', url: `${url}?batch=1&input=[` },
      status: 400,
      batch: true,
    },
    { name: 'batch input not an object', request: send([42], true), status: 400, batch: true },
    { name: 'unknown sub-path', request: { method: 'GET', url: `${url}.nope` }, status: 404 },
    { name: 'unknown sibling', request: post(`${url}Nope`, 'application/json', '{}'), status: 404 },
  ];
  // A procedure without input never reads it: well-formed input of any type is ignored (below).
  if (takesInput) {
    mistakes.push(
      { name: 'input of the wrong type', request: send(42), status: '4xx' },
      { name: 'batch entry of the wrong type', request: send({ 0: 'x' }, true), status: '4xx', batch: true },
    );
  }
  // A query only: a batch runs every call it names, and a mutation beside `nope` would run.
  if (type === 'query') {
    const request: InjectOptions = { method: 'GET', url: `/api/trpc/${path},nope?batch=1&input=${json({})}` };
    mistakes.push({ name: 'batch with an unknown call', request, status: '4xx', batch: true });
  }
  return mistakes;
}

/** Paths that name no procedure, including the ones an object lookup could trip over. */
const UNKNOWN_PATHS = ['nope', 'users', 'users.', '.users.list', '__proto__', 'constructor', 'toString', 'a/b', ''];

interface Envelope {
  error?: { message?: unknown; code?: unknown; data?: { code?: unknown; httpStatus?: unknown } };
  result?: unknown;
}

/** What is wrong with a refusal, as sentences; empty when it is a proper tRPC 4xx. */
function refusalIssues(res: LightMyRequestResponse, mistake: Mistake): string[] {
  const issues: string[] = [];
  const { statusCode: status } = res;
  const statusOk = mistake.status === '4xx' ? status >= 400 && status < 500 : status === mistake.status;
  if (!statusOk) issues.push(`answered ${status}, expected ${mistake.status}`);
  if (!String(res.headers['content-type']).startsWith('application/json')) {
    issues.push(`content-type ${res.headers['content-type']}`);
  }
  if (/"stack"|\n\s+at /.test(res.body)) issues.push('a stack trace in the body');
  let body: Envelope | Envelope[];
  try {
    body = res.json();
  } catch {
    return [...issues, 'a body that is not JSON'].map((i) => `${mistake.name}: ${i}`);
  }
  // A batch refused as a whole is one envelope, as tRPC answers it; the client gives it to every call.
  if (Array.isArray(body) && !mistake.batch) issues.push('an array for a single call');
  const errors = (Array.isArray(body) ? body : [body]).flatMap((item) => (item.error ? [item.error] : []));
  if (errors.length === 0) issues.push('no error envelope');
  for (const error of errors) {
    const code = error.data?.code as ErrorCode;
    if (typeof error.message !== 'string' || typeof error.code !== 'number') issues.push('no message or code');
    if (!ERROR_CODES.includes(code)) issues.push(`data.code ${String(code)} is not a contract code`);
    else if (error.data?.httpStatus !== ERRORS[code].status) issues.push(`data.httpStatus disagrees with ${code}`);
  }
  if (errors[0] && errors[0].data?.httpStatus !== status) issues.push('data.httpStatus is not the response status');
  return issues.map((i) => `${mistake.name}: ${i}`);
}

let t: TestApp;
const CALLERS = ['anonymous', 'admin by session cookie', 'admin by bearer token'] as const;
/** Filled in by beforeAll; the anonymous caller sends no credentials. */
const callers: Record<(typeof CALLERS)[number], Caller> = {
  anonymous: {},
  'admin by session cookie': {},
  'admin by bearer token': {},
};

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '100000' });
  const g = given(t.db);
  const admin = await g.user({ roles: ['admin'] });
  callers['admin by session cookie'] = { cookie: await loginCookie(t.app, admin.email, admin.password) };
  callers['admin by bearer token'] = { token: await g.token(admin.id) };
});
afterAll(() => t.close());

function inject(caller: Caller, request: InjectOptions) {
  const headers: Record<string, string> = {
    ...(request.headers as Record<string, string> | undefined),
    ...(caller.cookie ? { cookie: caller.cookie } : {}),
    ...(caller.token ? { authorization: `Bearer ${caller.token}` } : {}),
  };
  return t.app.inject({ ...request, headers });
}

const whoAmI = (caller: Caller) => inject(caller, { method: 'GET', url: '/api/trpc/auth.me' });

describe.each(CALLERS)('the tRPC door, %s', (who) => {
  const current = () => callers[who];

  it.each(procedures.map((p) => [p.path, p] as const))(
    'refuses every client mistake to %s with a 4xx in the tRPC envelope',
    async (_path, procedure) => {
      const issues: string[] = [];
      for (const mistake of mistakesFor(procedure)) {
        issues.push(...refusalIssues(await inject(current(), mistake.request), mistake));
      }
      expect(issues).toEqual([]);
      // No mistake reached a procedure: not even auth.logout, which would end the session.
      if (who !== 'anonymous') expect((await whoAmI(current())).statusCode).toBe(200);
    },
  );

  it('answers 404 in the tRPC envelope for paths that name no procedure', async () => {
    const issues: string[] = [];
    for (const path of UNKNOWN_PATHS) {
      for (const request of [
        { method: 'GET' as const, url: `/api/trpc/${path}` },
        post(`/api/trpc/${path}`, 'application/json', '{}'),
      ]) {
        const mistake = { name: `${request.method} /api/trpc/${path}`, request, status: 404 };
        issues.push(...refusalIssues(await inject(current(), request), mistake));
      }
    }
    expect(issues).toEqual([]);
  });
});

describe('the reported reproductions', () => {
  const admin = () => callers['admin by session cookie'];

  it('answers POST auth.login sent as text/plain with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await inject({}, post('/api/trpc/auth.login', 'text/plain', '{"email":"a@b.c","password":"x"}'));
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatchObject({
      message: 'Send the request body as application/json.',
      data: { code: 'UNSUPPORTED_MEDIA_TYPE', httpStatus: 415 },
    });
  });

  it('answers GET users.setActive with 405 METHOD_NOT_ALLOWED and Allow: POST, changing nothing', async () => {
    const target = await given(t.db).user();
    const res = await inject(admin(), {
      method: 'GET',
      url: `/api/trpc/users.setActive?input=${json({ id: target.id, active: false })}`,
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json().error.data).toMatchObject({ code: 'METHOD_NOT_ALLOWED', httpStatus: 405 });
    expect((await t.db.models.User.findByPk(target.id))?.is_active).toBe(true);
  });

  it('answers POST users.list with 405 METHOD_NOT_ALLOWED and Allow: GET', async () => {
    const res = await inject(admin(), post('/api/trpc/users.list', 'application/json', '{}'));
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json().error).toMatchObject({
      message: 'tRPC reads queries with GET and mutations with POST.',
      data: { code: 'METHOD_NOT_ALLOWED', httpStatus: 405, path: 'users.list' },
    });
  });
});

describe('the tRPC door otherwise', () => {
  it('refuses a malformed body to a procedure without input instead of running it', async () => {
    const admin = await given(t.db).user({ roles: ['admin'] });
    const cookie = await loginCookie(t.app, admin.email, admin.password);
    const res = await inject({ cookie }, post('/api/trpc/auth.logout', 'application/json', '{"'));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.data.code).toBe('BAD_REQUEST');
    expect((await whoAmI({ cookie })).statusCode).toBe(200);
  });

  it('still serves what the tRPC client sends: a batched GET, and a mutation without input and body', async () => {
    const admin = await given(t.db).user({ roles: ['admin'] });
    const cookie = await loginCookie(t.app, admin.email, admin.password);
    const batch = await inject(
      { cookie },
      { method: 'GET', url: `/api/trpc/auth.me,system.health?batch=1&input=${json({})}` },
    );
    expect(batch.statusCode).toBe(200);
    expect(batch.json()).toHaveLength(2);
    const logout = await inject(
      { cookie },
      { method: 'POST', url: '/api/trpc/auth.logout', headers: { 'content-type': 'application/json' } },
    );
    expect(logout.statusCode).toBe(200);
    expect((await whoAmI({ cookie })).statusCode).toBe(401);
  });

  it('serves a batch whose procedure list is longer than 200 characters, as a busy page sends', async () => {
    const names = Array.from({ length: 30 }, () => 'system.health').join(',');
    expect(names.length).toBeGreaterThan(200);
    const res = await inject({}, { method: 'GET', url: `/api/trpc/${names}?batch=1&input=${json({})}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(30);
  });

  it('ignores well-formed input sent to a procedure that declares none, as its REST route ignores a query string', async () => {
    const res = await inject({}, { method: 'GET', url: `/api/trpc/system.health?input=${json(42)}` });
    expect(res.statusCode).toBe(200);
  });

  it('answers a refusal made before tRPC runs (cross-site) in the same envelope', async () => {
    const res = await inject(
      {},
      {
        ...post('/api/trpc/auth.login', 'application/json', '{}'),
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().error.data).toEqual({ code: 'FORBIDDEN', httpStatus: 403 });
  });
});

describe('the REST door', () => {
  const token = () => callers['admin by bearer token'];
  const expectProblem = (res: LightMyRequestResponse, status: number, code: ErrorCode) => {
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status, code });
  };

  it('answers a text/plain body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    expectProblem(await inject(token(), post('/api/users', 'text/plain', '{}')), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers form and multipart bodies with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const form = post('/api/users', 'application/x-www-form-urlencoded', 'name=x');
    expectProblem(await inject(token(), form), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const multipart = post('/api/users', 'multipart/form-data; boundary=b', MULTIPART);
    expectProblem(await inject(token(), multipart), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    expectProblem(await inject(token(), post('/api/users', 'application/json', OVER_ONE_MB)), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    expectProblem(await inject(token(), post('/api/users', 'application/json', '{"name":')), 400, 'BAD_REQUEST');
  });
});
