import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { type Forger, type Forgery, startForger } from '../support/oidc-forger.js';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { ssoSignIn } from '../support/sso-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PUBLIC_URL = 'http://people.example.test';

/**
 * ID tokens a product must refuse, made from real ones: the provider is registered through the
 * forger (oidc-forger.ts), which re-signs the real provider's ID token after changing one thing.
 * The forger's own re-signed token, changed in nothing, signs in: so each refusal is for its change.
 */
describe('single sign-on refuses ID tokens that fail a check', () => {
  let t: TestApp;
  let op: TestProvider;
  let forger: Forger;
  let providerId: number;

  beforeAll(async () => {
    op = await startTestProvider(PUBLIC_URL);
    forger = await startForger(op.issuer);
    t = await startTestApp({ SSO_ALLOW_INSECURE_ISSUER: 'true', PUBLIC_URL });
    const a = await given(t.db).user({ roles: ['admin'] });
    const admin = await loginCookie(t.app, a.email, a.password);
    const res = await request(t.app, { cookie: admin }).post('/api/auth/providers', {
      name: 'Forged',
      issuer: forger.issuer,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      allowed_domains: ['example.com'],
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    providerId = res.json().item.id;
    await given(t.db).user({ email: 'kim@example.com' });
    op.accounts.set('kim', { email: 'kim@example.com', email_verified: true });
    op.signInAs('kim');
  });
  afterAll(async () => {
    await t.close();
    await forger.close();
    await op.close();
  });

  // The real provider names itself in the redirect (RFC 9207); the forger's document does not
  // announce the parameter, so the browser's return is taken without it.
  const signIn = () => ssoSignIn(t.app, providerId, { rewrite: (u) => u.searchParams.delete('iss') });

  it('signs in with the re-signed token when nothing in it was changed (the control)', async () => {
    forger.forge('none');
    const out = await signIn();
    expect(out.location).toBe('/');
    expect(out.session).not.toBeNull();
  });

  it.each<[Forgery, string]>([
    ['issuer', 'another issuer'],
    ['audience', 'another audience'],
    ['signature', 'a signature from a key not in the provider’s key set'],
    ['expired', 'an expiry in the past'],
    ['nonce', 'a nonce this browser never had'],
  ])('refuses a token with %s (%s): sso_token, no session', async (mode) => {
    forger.forge(mode);
    const out = await signIn();
    expect(out).toMatchObject({ status: 302, location: '/login?error=sso_token', session: null });
  });
});
