import { type ApiTokenCreated, ROOT_ERROR_KEY, TOKENS_PER_USER, type TokenCreateInput } from '@app/contracts';
import { permissionNames } from '../../auth/actor.js';
import { mintApiToken } from '../../auth/api-tokens.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { accountWithinCeiling } from '../../repositories/users.ceiling.js';
import type { HandlerContext } from '../../context.js';
import { countTokens, toApiToken } from './tokens.repository.js';
import { decideScopes } from '../../domain/token-scopes.js';

const refusal = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { errors: { [field]: [message] } });

/**
 * Makes an API token for `ownerId` (the caller, or another user within the caller's reach),
 * under the owner's row lock: the ceiling, the owner's status, the scopes (`decideScopes`) and
 * the per-user bound are judged against what the owner holds at that moment, and the token and
 * its audit row commit together. The secret is in the answer and nowhere else.
 */
export async function mintToken(
  ctx: HandlerContext,
  ownerId: number,
  input: TokenCreateInput,
): Promise<ApiTokenCreated> {
  const { db } = ctx;
  return writeTransaction(db, async (tx) => {
    const owner = await accountWithinCeiling(ctx, tx, ownerId);
    if (!owner.is_active) {
      throw refusal(ROOT_ERROR_KEY, `${owner.name} is inactive: a token would not work, so none is made.`);
    }
    const decided = decideScopes({
      requested: input.scopes,
      owner: { id: owner.id, name: owner.name, permissions: await permissionNames(db, owner.id, tx) },
      caller: {
        id: ctx.actor.id,
        permissions: ctx.actor.permissions,
        narrowed: ctx.auth?.via === 'token' && ctx.auth.scopes !== null,
      },
    });
    if ('refusal' in decided) throw refusal('scopes', decided.refusal);
    if ((await countTokens(db, tx, owner.id)) >= TOKENS_PER_USER) {
      throw refusal(
        ROOT_ERROR_KEY,
        `${owner.id === ctx.actor.id ? 'You already have' : `${owner.name} already has`} ${TOKENS_PER_USER} API tokens: revoke one before making another.`,
      );
    }
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    const { row, token } = await mintApiToken(
      db,
      // The command line's operator is nobody's account: its tokens have no maker, as the contract says.
      {
        userId: owner.id,
        name: input.name,
        expiresAt,
        scopes: decided.scopes,
        createdBy: ctx.source === 'cli' ? null : ctx.actor.id,
      },
      tx,
    );
    // With the scopes; never the secret.
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'token.create',
      targetType: 'user',
      targetIds: [owner.id],
      context: { tokenId: row.id, name: row.name, expiresAt: expiresAt?.toISOString() ?? null, scopes: decided.scopes },
    });
    return { item: toApiToken(row, new Map([[ctx.actor.id, ctx.actor.name]])), token };
  });
}
