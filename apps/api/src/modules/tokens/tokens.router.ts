import {
  ApiTokenCreatedSchema,
  ApiTokenListSchema,
  IdInputSchema,
  TokenCreateInputSchema,
  TokenIdInputSchema,
  TokenOptionsSchema,
} from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { can, protectedProcedure } from '../../trpc/procedures.js';
import { createTokenFor } from './create-for.handler.js';
import { createOwnToken } from './create.handler.js';
import { listTokensFor } from './list-for.handler.js';
import { listOwnTokens } from './list.handler.js';
import { ownTokenOptions, tokenOptionsFor } from './options.handler.js';
import { revokeTokenFor } from './revoke-for.handler.js';
import { revokeOwnToken } from './revoke.handler.js';

/** Personal API tokens: one's own for any signed-in caller, other users' with tokens.manage and within the ceiling. */
export const tokensRouter = router({
  list: protectedProcedure
    .meta(rest('GET', '/tokens', { summary: 'Your API tokens (never their secrets)' }))
    .output(ApiTokenListSchema)
    .query(listOwnTokens),
  options: protectedProcedure
    .meta(rest('GET', '/tokens/options', { summary: 'The permissions a token of your own may be narrowed to' }))
    .output(TokenOptionsSchema)
    .query(ownTokenOptions),
  create: protectedProcedure
    .meta(
      rest('POST', '/tokens', {
        status: 201,
        summary:
          'Make an API token for yourself, optionally narrowed to some of your permissions; its secret is shown once',
      }),
    )
    .input(TokenCreateInputSchema)
    .output(ApiTokenCreatedSchema)
    .mutation(createOwnToken),
  revoke: protectedProcedure
    .meta(
      rest('DELETE', '/tokens/{tokenId}', {
        status: 204,
        summary: 'Revoke one of your API tokens, at once',
        problems: ['NOT_FOUND'],
      }),
    )
    .input(TokenIdInputSchema)
    .mutation(revokeOwnToken),
  listFor: can('tokens.manage')
    .meta(rest('GET', '/users/{id}/tokens', { summary: "A user's API tokens", problems: ['OUTRANKED'] }))
    .input(IdInputSchema)
    .output(ApiTokenListSchema)
    .query(listTokensFor),
  optionsFor: can('tokens.manage')
    .meta(
      rest('GET', '/users/{id}/tokens/options', {
        summary: 'The permissions a token you make for a user may be narrowed to: those you both hold',
        problems: ['OUTRANKED'],
      }),
    )
    .input(IdInputSchema)
    .output(TokenOptionsSchema)
    .query(tokenOptionsFor),
  createFor: can('tokens.manage')
    .meta(
      rest('POST', '/users/{id}/tokens', {
        status: 201,
        summary:
          'Make an API token for a user, optionally narrowed to some of their permissions; its secret is shown once',
        problems: ['OUTRANKED'],
      }),
    )
    .input(IdInputSchema)
    .input(TokenCreateInputSchema)
    .output(ApiTokenCreatedSchema)
    .mutation(createTokenFor),
  revokeFor: can('tokens.manage')
    .meta(
      rest('DELETE', '/users/{id}/tokens/{tokenId}', {
        status: 204,
        summary: "Revoke one of a user's API tokens, at once",
        problems: ['OUTRANKED'],
      }),
    )
    .input(IdInputSchema)
    .input(TokenIdInputSchema)
    .mutation(revokeTokenFor),
});
