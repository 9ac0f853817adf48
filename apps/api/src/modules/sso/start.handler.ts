import type { SsoRedirect, SsoStartInput } from '@app/contracts';
import * as oidc from 'openid-client';
import { SSO_ATTEMPT_SECONDS, SSO_COOKIE, startAttempt } from '../../sso/attempts.js';
import type { Context, HandlerCall } from '../../context.js';
import { providerOf, redirectUriOf, toLogin } from './sso.provider.js';

/**
 * GET /auth/sso/{id}/start: sends the browser to the provider (authorization code with PKCE
 * S256, a fresh state and nonce). What the callback must check stays server-side; the browser
 * holds only a random handle to it in an httpOnly cookie, so the sign-in can only finish in the
 * browser that started it.
 */
export async function startSso({ ctx, input }: HandlerCall<SsoStartInput, Context>): Promise<SsoRedirect> {
  const provider = await providerOf(ctx, input.id);
  if (!provider) return toLogin('sso_provider');
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const handle = await startAttempt(ctx.db, { providerId: provider.row.id, state, nonce, codeVerifier });
  ctx.cookies.set(SSO_COOKIE, handle, { maxAgeSeconds: SSO_ATTEMPT_SECONDS });
  const url = oidc.buildAuthorizationUrl(provider.client, {
    redirect_uri: redirectUriOf(ctx.config, provider.row.id),
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { location: url.href };
}
