import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

/** What the forger does to each ID token it passes on. */
export type Forgery = 'none' | 'issuer' | 'audience' | 'signature' | 'expired' | 'nonce';

export interface Forger {
  /** Its own issuer URL: a provider registered with it gets ID tokens the forger re-signed. */
  issuer: string;
  forge(mode: Forgery): void;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const read = (req: http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * An issuer in front of the real test provider, to make the ID tokens a product must refuse: its
 * discovery document is the provider's with its own issuer, token endpoint and key set (the
 * browser still signs in at the real provider). Its token endpoint passes the exchange to the
 * provider and re-signs the ID token with its own key — unchanged (`none`: the control, which must
 * sign in), or with another issuer, another audience, a past expiry, another nonce, or signed
 * with a key that is not in its key set (`signature`).
 */
export async function startForger(providerIssuer: string): Promise<Forger> {
  const own = await generateKeyPair('RS256', { extractable: true });
  const rogue = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(own.publicKey)), kid: 'forger', alg: 'RS256', use: 'sig' };
  let mode: Forgery = 'none';
  const upstream = (await (await fetch(`${providerIssuer}/.well-known/openid-configuration`)).json()) as Record<
    string,
    unknown
  >;

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const reSign = async (idToken: string): Promise<string> => {
    const claims: JWTPayload = { ...decodeJwt(idToken), iss: issuer };
    const now = Math.floor(Date.now() / 1000);
    if (mode === 'issuer') claims.iss = 'https://someone-else.example';
    if (mode === 'audience') claims.aud = 'another-client';
    if (mode === 'expired') Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
    if (mode === 'nonce') claims.nonce = 'a-nonce-this-browser-never-had';
    const key = mode === 'signature' ? rogue.privateKey : own.privateKey;
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'forger' }).sign(key);
  };

  server.on('request', (req, res) => {
    void (async () => {
      const path = req.url?.split('?')[0];
      if (path === '/.well-known/openid-configuration') {
        const { authorization_response_iss_parameter_supported: _iss, ...rest } = upstream;
        return json(res, 200, { ...rest, issuer, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` });
      }
      if (path === '/jwks') return json(res, 200, { keys: [publicJwk] });
      if (path === '/token' && req.method === 'POST') {
        const answer = await fetch(String(upstream.token_endpoint), {
          method: 'POST',
          headers: {
            'content-type': String(req.headers['content-type']),
            authorization: String(req.headers.authorization ?? ''),
          },
          body: await read(req),
        });
        const body = (await answer.json()) as Record<string, unknown>;
        if (typeof body.id_token === 'string') body.id_token = await reSign(body.id_token);
        return json(res, answer.status, body);
      }
      return json(res, 404, { error: 'not_found' });
    })().catch((err: unknown) => json(res, 500, { error: String(err) }));
  });

  return {
    issuer,
    forge(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
