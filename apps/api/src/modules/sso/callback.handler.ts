import type { SsoCallbackInput, SsoError, SsoRedirect } from '@app/contracts';
import type * as Client from 'openid-client';
import { SSO_COOKIE, takeAttempt } from '../../sso/attempts.js';
import { openidClient } from '../../sso/oidc.js';
import type { Context, HandlerCall } from '../../context.js';
import type { AuthProviderRow } from '../../db/models/index.js';
import { judgeSso } from '../../domain/sso.rules.js';
import { recordChange } from '../../journal/journal.js';
import { openSession } from '../auth/login.handler.js';
import { accountByEmail, createSsoAccount } from './sso.account.js';
import { providerOf, redirectUriOf, toLogin } from './sso.provider.js';

/** The query parameters a provider's redirect carries, as the client library reads them back. */
const CALLBACK_PARAMS = ['code', 'state', 'iss', 'error', 'error_description', 'session_state'] as const;

/**
 * A token the library refused (signature, issuer, audience, nonce, expiry, a used code) is the
 * token's fault; anything else (the provider unreachable, a network error) is the provider's.
 */
function failureOf(oidc: typeof Client, err: unknown): SsoError {
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) return 'sso_token';
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('OAUTH_') ? 'sso_token' : 'sso_provider';
}

async function refuse(
  ctx: Context,
  provider: AuthProviderRow | null,
  providerId: number,
  reason: SsoError,
  userId?: number,
): Promise<SsoRedirect> {
  await recordChange(ctx.db, null, {
    actorId: null,
    action: 'auth.ssoFailed',
    ...(userId ? { targetType: 'user', targetIds: [userId] } : {}),
    context: { sso_provider_id: providerId, sso_provider: provider?.name ?? null, reason },
    ip: ctx.ip,
    requestId: ctx.requestId,
    via: { kind: 'session' },
  });
  return toLogin(reason);
}

/**
 * GET /auth/sso/{id}/callback: the provider sends the browser back here. The sign-in this
 * browser started is taken (once: a replay finds nothing); the code is exchanged with its PKCE
 * verifier and the ID token checked by the client library (signature from the provider's keys,
 * issuer, audience, nonce, expiry); then the person is judged (`judgeSso`) and signed in through
 * `openSession`, like every sign-in, with the provider's second factor when its `amr` says so.
 * Every refusal sends the browser to `/login?error=<code>` with no session, and is audited.
 */
export async function ssoCallback({ ctx, input }: HandlerCall<SsoCallbackInput, Context>): Promise<SsoRedirect> {
  const attempt = await takeAttempt(ctx.db, ctx.cookies.get(SSO_COOKIE), input.id);
  ctx.cookies.clear(SSO_COOKIE);
  const provider = await providerOf(ctx, input.id);
  if (!provider) return refuse(ctx, null, input.id, 'sso_provider');
  if (!attempt || input.state !== attempt.state) return refuse(ctx, provider.row, input.id, 'sso_state');
  if (input.error) return refuse(ctx, provider.row, input.id, 'sso_provider');

  const url = new URL(redirectUriOf(ctx.config, provider.row.id));
  for (const name of CALLBACK_PARAMS) {
    const value = input[name];
    if (value !== undefined) url.searchParams.set(name, value);
  }
  const oidc = await openidClient();
  let claims: Record<string, unknown>;
  try {
    const tokens = await oidc.authorizationCodeGrant(provider.client, url, {
      pkceCodeVerifier: attempt.codeVerifier,
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const idToken: Record<string, unknown> = tokens.claims() ?? {};
    // Providers that keep the e-mail out of the ID token (oidc-provider's default, some Entra
    // set-ups) answer it at userinfo, for the token's own subject; the ID token's claims win.
    claims =
      idToken.email === undefined
        ? { ...(await oidc.fetchUserInfo(provider.client, tokens.access_token, String(idToken.sub))), ...idToken }
        : idToken;
  } catch (err) {
    ctx.log.info({ providerId: input.id, reason: err instanceof Error ? err.message : String(err) }, 'sso refused');
    return refuse(ctx, provider.row, input.id, failureOf(oidc, err));
  }

  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  const account = email ? await accountByEmail(ctx, email) : null;
  const decided = judgeSso({
    claims,
    allowedDomains: provider.row.allowed_domains,
    createUsers: Boolean(provider.row.create_users),
    account,
  });
  if ('refusal' in decided) return refuse(ctx, provider.row, input.id, decided.refusal, account?.id);
  const userId = 'signIn' in decided ? decided.signIn : await createSsoAccount(ctx, provider.row, decided.create.email);
  if (userId === null) return refuse(ctx, provider.row, input.id, 'sso_no_account');

  await recordChange(ctx.db, null, {
    actorId: userId,
    action: 'auth.ssoLogin',
    targetType: 'user',
    targetIds: [userId],
    context: { sso_provider_id: provider.row.id, sso_provider: provider.row.name, second_factor: decided.secondFactor },
    ip: ctx.ip,
    requestId: ctx.requestId,
    via: { kind: 'session' },
  });
  await openSession(ctx, userId, decided.secondFactor ? { secondFactor: 'provider' } : {});
  return { location: '/' };
}
