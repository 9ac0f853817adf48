import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type JWK } from 'oidc-provider';

/** A person the provider knows by their login: what its ID tokens and userinfo say about them. */
export interface ProviderPerson {
  email: string;
  email_verified: boolean;
}

export interface IdentityProvider {
  /** `http://127.0.0.1:<port>`: the e2e server runs with SSO_ALLOW_INSECURE_ISSUER=true. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who may sign in at its login page, by the login typed there (any password is taken). */
  people: Map<string, ProviderPerson>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider for the browser tests (apps/web/e2e/sso.e2e.ts; here, beside the API
 * tests' one, as this package is the one that depends on `oidc-provider`): set up as
 * `startTestProvider` is (one confidential client, PKCE S256 required, redirect URIs
 * `${productUrl}/api/auth/sso/<id>/callback` for ids 1 to 50), but with the provider's own login
 * and consent pages (its development interactions), which a browser fills in as a person would.
 */
export async function startIdentityProvider(productUrl: string): Promise<IdentityProvider> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: 'e2e-key', alg: 'RS256', use: 'sig' };
  const people = new Map<string, ProviderPerson>();
  const clientId = 'user-admin-e2e';
  const clientSecret = 'an-e2e-client-secret-never-shown-47';

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: Array.from({ length: 50 }, (_, i) => `${productUrl}/api/auth/sso/${i + 1}/callback`),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['e2e-provider-cookie-key'] },
    claims: { acr: null, auth_time: null, sid: null, openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    // Lifetimes set, so the provider does not print a notice for each default it falls back to.
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    // Its own login page (any password) and consent page: what the browser test walks through.
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...person }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  server.on('request', provider.callback());
  // A test process is never kept alive by the provider alone.
  server.unref();

  return {
    issuer,
    clientId,
    clientSecret,
    people,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
