import {
  AuthProviderCreateInputSchema,
  AuthProviderInputSchema,
  AuthProviderItemSchema,
  AuthProviderListSchema,
  IdInputSchema,
  PublicAuthProviderListSchema,
  SsoCallbackInputSchema,
  SsoRedirectSchema,
  SsoStartInputSchema,
} from '@app/contracts';
import { publicProcedure, rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { ssoCallback } from '../sso/callback.handler.js';
import { startSso } from '../sso/start.handler.js';
import { createProvider } from './create.handler.js';
import { deleteProvider } from './delete.handler.js';
import { listProviders, listPublicProviders } from './list.handler.js';
import { showProvider } from './show.handler.js';
import { updateProvider } from './update.handler.js';

const manage = can('auth.manage');

export const authProvidersRouter = router({
  list: manage
    .meta(rest('GET', '/auth/providers', { summary: 'List the single sign-on providers (never their secrets)' }))
    .output(AuthProviderListSchema)
    .query(listProviders),
  create: manage
    .meta(
      rest('POST', '/auth/providers', {
        status: 201,
        summary: "Add an OpenID Connect provider; its issuer's discovery document is read now (422 when it cannot be)",
      }),
    )
    .input(AuthProviderCreateInputSchema)
    .output(AuthProviderItemSchema)
    .mutation(createProvider),
  show: manage
    .meta(rest('GET', '/auth/providers/{id}', { summary: 'Show one single sign-on provider' }))
    .input(IdInputSchema)
    .output(AuthProviderItemSchema)
    .query(showProvider),
  update: manage
    .meta(
      rest('PUT', '/auth/providers/{id}', {
        summary:
          'Change a provider; without client_secret the stored one is kept. The discovery document is read again',
      }),
    )
    .input(IdInputSchema)
    .input(AuthProviderInputSchema)
    .output(AuthProviderItemSchema)
    .mutation(updateProvider),
  delete: manage
    .meta(rest('DELETE', '/auth/providers/{id}', { status: 204, summary: 'Remove a single sign-on provider' }))
    .input(IdInputSchema)
    .mutation(deleteProvider),
  public: publicProcedure
    .meta({
      ...rest('GET', '/auth/providers/public', { summary: 'The providers the sign-in page offers: id and name' }),
      public: true,
    })
    .output(PublicAuthProviderListSchema)
    .query(listPublicProviders),
  start: publicProcedure
    .meta({
      ...rest('GET', '/auth/sso/{id}/start', {
        status: 302,
        summary: 'Start single sign-on: redirects the browser to the provider (code flow, PKCE S256, state, nonce)',
      }),
      public: true,
    })
    .input(SsoStartInputSchema)
    .output(SsoRedirectSchema)
    .query(startSso),
  callback: publicProcedure
    .meta({
      ...rest('GET', '/auth/sso/{id}/callback', {
        status: 302,
        summary:
          'Where the provider sends the browser back: redirects to / signed in, or to /login?error=<code> with no session',
      }),
      public: true,
    })
    .input(SsoCallbackInputSchema)
    .output(SsoRedirectSchema)
    .query(ssoCallback),
});
