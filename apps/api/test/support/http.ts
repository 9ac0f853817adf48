import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export interface Caller {
  cookie?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** The `sid=…` pair from a response's Set-Cookie, ready to send back. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const header = res.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const sid = all.find((c) => c.startsWith('sid='));
  if (!sid) throw new Error(`no session cookie in ${JSON.stringify(all)}`);
  return sid.split(';')[0] as string;
}

export function request(app: FastifyInstance, who: Caller = {}) {
  const headers = (): Record<string, string> => ({
    ...(who.cookie ? { cookie: who.cookie } : {}),
    ...(who.token ? { authorization: `Bearer ${who.token}` } : {}),
    ...who.headers,
  });
  return {
    get: (url: string) => app.inject({ method: 'GET', url, headers: headers() }),
    post: (url: string, body?: unknown) =>
      app.inject({
        method: 'POST',
        url,
        headers: headers(),
        ...(body === undefined ? {} : { payload: body as object }),
      }),
    put: (url: string, body?: unknown) =>
      app.inject({ method: 'PUT', url, headers: headers(), payload: (body ?? {}) as object }),
    patch: (url: string, body?: unknown) =>
      app.inject({ method: 'PATCH', url, headers: headers(), payload: (body ?? {}) as object }),
    delete: (url: string) => app.inject({ method: 'DELETE', url, headers: headers() }),
  };
}

/** Logs in through the REST door and returns the session cookie. */
export async function loginCookie(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await request(app).post('/api/auth/login', { email, password });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return sessionCookie(res);
}
