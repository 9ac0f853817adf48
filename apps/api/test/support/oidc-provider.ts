import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** A person the test provider knows: the claims its ID tokens carry about them. */
export interface ProviderAccount {
  email: string;
  email_verified: boolean;
}

export const CLIENT_ID = 'user-admin';
export const CLIENT_SECRET = 'a-client-secret-the-tests-use-41';

export interface TestProvider {
  /** The issuer URL (http://127.0.0.1:<port>): register it with SSO_ALLOW_INSECURE_ISSUER=true. */
  issuer: string;
  /** Who the provider knows, by subject. */
  accounts: Map<string, ProviderAccount>;
  /** Who signs in at the next login prompt, and the `amr` the provider says they used. */
  signInAs(subject: string, amr?: string[]): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider for the tests: the certified `oidc-provider`, on 127.0.0.1 and a free
 * port, with one confidential client for the product (PKCE required, S256) whose redirect URIs
 * are `${publicUrl}/api/auth/sso/<id>/callback` for ids 1 to 50. Its login prompt is answered
 * without a form: the interaction route signs in whoever `signInAs` named, and consent is granted
 * as a first-party client's would be.
 */
export async function startTestProvider(publicUrl: string): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, ProviderAccount>();
  let next: { subject: string; amr: string[] } | null = null;

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: Array.from({ length: 50 }, (_, i) => `${publicUrl}/api/auth/sso/${i + 1}/callback`),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: ['test-provider-cookie-key'] },
    // The e-mail with scope email; amr in every ID token that has one (the login's, below).
    claims: { acr: null, auth_time: null, sid: null, openid: ['sub', 'amr'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      // The ID token's amr: the provider reads it from the account's claims (the login result's own
      // amr does not reach an ID token issued at the token endpoint).
      const amr = next?.subject === sub && next.amr.length ? { amr: next.amr } : {};
      return { accountId: sub, claims: async () => ({ sub, ...account, ...amr }) };
    },
    // A first-party client: what it asks for is granted without a consent page.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  // Quiet: a refused token exchange is what many tests are about.
  provider.on('server_error', () => undefined);
  const callback = provider.callback();

  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    void (async () => {
      try {
        await provider.interactionDetails(req, res);
        if (!next) throw new Error('the test provider was not told who signs in (signInAs)');
        const { subject, amr } = next;
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: subject, ...(amr.length ? { amr } : {}) } },
          { mergeWithLastSubmission: false },
        );
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err));
      }
    })();
  });

  return {
    issuer,
    accounts,
    signInAs(subject, amr = []) {
      next = { subject, amr };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's cookies for one origin, by name (paths ignored: the tests visit one provider). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(setCookie: string[]): void {
    for (const line of setCookie) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (!pair || at < 1) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Follows the provider's redirects from the authorization URL as a browser would (cookies kept,
 * relative locations resolved) until one leaves the provider: that location is the answer (the
 * product's callback, with the code and state).
 */
export async function followProvider(start: string, jar = new CookieJar()): Promise<string> {
  let url = start;
  const origin = new URL(start).origin;
  for (let hop = 0; hop < 20; hop += 1) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res.headers.getSetCookie());
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status} at ${url}: ${await res.text()}`);
    await res.arrayBuffer();
    const nextUrl = new URL(location, url);
    if (nextUrl.origin !== origin) return nextUrl.href;
    url = nextUrl.href;
  }
  throw new Error('the provider redirected more than 20 times');
}
