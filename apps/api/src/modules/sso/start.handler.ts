import type { SsoRedirect, SsoStartInput } from '@app/contracts';
import { clientBucketKey, hit } from '../../auth/rate-limit.js';
import { SSO_ATTEMPT_SECONDS, SSO_COOKIE, startAttempt } from '../../sso/attempts.js';
import { openidClient } from '../../sso/oidc.js';
import type { Context, HandlerCall } from '../../context.js';
import { providerOf, redirectUriOf, toLogin } from './sso.provider.js';

/**
 * GET /auth/sso/{id}/start: sends the browser to the provider (authorization code with PKCE
 * S256, a fresh state and nonce). What the callback must check stays server-side; the browser
 * holds only a random handle to it in an httpOnly cookie, so the sign-in can only finish in the
 * browser that started it. Anyone may start one, and each start stores a row: starts count
 * against the client network's sign-in limit (LOGIN_MAX_ATTEMPTS_PER_IP per LOGIN_WINDOW_MINUTES),
 * past which the browser goes back to the sign-in page with `sso_rate_limited`.
 */
export async function startSso({ ctx, input }: HandlerCall<SsoStartInput, Context>): Promise<SsoRedirect> {
  const { config } = ctx;
  const started = await hit(ctx.db, clientBucketKey('sso-start', ctx.ip), config.LOGIN_WINDOW_MINUTES * 60_000);
  if (started.hits > config.LOGIN_MAX_ATTEMPTS_PER_IP) return toLogin('sso_rate_limited');
  const provider = await providerOf(ctx, input.id);
  if (!provider) return toLogin('sso_provider');
  const oidc = await openidClient();
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
