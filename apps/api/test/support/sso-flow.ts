import type { FastifyInstance } from 'fastify';
import { followProvider } from './oidc-provider.js';

/** The `name=value` pair of a cookie a response sets, or null. */
export function cookieOf(setCookie: string | string[] | undefined, name: string): string | null {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = all.find((c) => c.startsWith(`${name}=`));
  const pair = line?.split(';')[0];
  return pair && pair !== `${name}=` ? pair : null;
}

export interface SsoOutcome {
  status: number;
  location: string | undefined;
  /** The session cookie the callback set, or null when it set none. */
  session: string | null;
}

/**
 * A browser's single sign-on with the product: start (the product's `sso` cookie kept), the
 * provider's redirects, then the callback as the provider sent it. `rewrite` changes the callback
 * URL first (a forged state, a dropped parameter); `cookie` replaces the browser's `sso` cookie.
 */
export async function ssoSignIn(
  app: FastifyInstance,
  providerId: number,
  options: { rewrite?: (url: URL) => void; cookie?: (own: string) => string } = {},
): Promise<SsoOutcome & { callbackPath: string; ssoCookie: string }> {
  const start = await app.inject({ method: 'GET', url: `/api/auth/sso/${providerId}/start` });
  if (start.statusCode !== 302) throw new Error(`start answered ${start.statusCode}: ${start.body}`);
  const ssoCookie = cookieOf(start.headers['set-cookie'], 'sso');
  if (!ssoCookie) throw new Error('start set no sso cookie');
  const back = new URL(await followProvider(start.headers.location as string));
  options.rewrite?.(back);
  const callbackPath = `${back.pathname}${back.search}`;
  const cookie = options.cookie ? options.cookie(ssoCookie) : ssoCookie;
  return { ...(await callback(app, callbackPath, cookie)), callbackPath, ssoCookie };
}

/** The callback request itself, with the browser's cookie header. */
export async function callback(app: FastifyInstance, path: string, cookie: string): Promise<SsoOutcome> {
  const res = await app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
  return {
    status: res.statusCode,
    location: res.headers.location as string | undefined,
    session: cookieOf(res.headers['set-cookie'], 'sid'),
  };
}
