import type { SsoError } from '@app/contracts';
import type { Configuration } from 'openid-client';
import { providerClient, providerSettings } from '../../sso/oidc.js';
import type { AppConfig } from '../../config.js';
import type { Context } from '../../context.js';
import type { AuthProviderRow } from '../../db/models/index.js';
import { mailSettings, publicLink } from '../../mail/settings.js';
import { secretKeysOf } from '../../webhooks/settings.js';
import { openSecret } from '../../webhooks/secret-box.js';

/** Where the provider sends the browser back, under the origin people open the product at. */
export const redirectUriOf = (config: AppConfig, id: number) =>
  publicLink(mailSettings(config), `/api/auth/sso/${id}/callback`);

/** Where a refused single sign-on sends the browser: the sign-in page, with a code it words. */
export const toLogin = (code: SsoError) => ({ location: `/login?error=${code}` });

/**
 * A saved provider and its client, or null when it is gone or its secret does not open (sealed
 * with a key this instance was not given): the sign-in ends with `sso_provider`.
 */
export async function providerOf(
  ctx: Context,
  id: number,
): Promise<{ row: AuthProviderRow; client: Configuration } | null> {
  const row = await ctx.db.models.AuthProvider.findByPk(id);
  if (!row) return null;
  try {
    const clientSecret = openSecret(row.client_secret, secretKeysOf(ctx.config));
    const client = await providerClient(
      { issuer: row.issuer, metadata: row.metadata, clientId: row.client_id, clientSecret },
      providerSettings(ctx.config),
    );
    return { row, client };
  } catch (err) {
    ctx.log.warn({ err, providerId: id }, 'single sign-on provider unusable');
    return null;
  }
}
