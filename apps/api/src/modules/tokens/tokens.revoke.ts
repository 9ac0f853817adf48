import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { scopesOf } from '../../auth/api-tokens.js';
import { writeTransaction } from '../../db/transaction.js';
import { notFound } from '../../errors.js';
import { accountWithinCeiling } from '../../repositories/users.ceiling.js';
import type { HandlerContext } from '../../context.js';
import { lockTokenOf } from './tokens.repository.js';

/**
 * Deletes one token of `ownerId` (404 when that user has no such token): the row goes, so the
 * very next request with it is refused. The audit row names the token, never its secret.
 */
export async function revokeToken(ctx: HandlerContext, ownerId: number, tokenId: number): Promise<void> {
  const { db } = ctx;
  await writeTransaction(db, async (tx) => {
    const owner = await accountWithinCeiling(ctx, tx, ownerId);
    const token = await lockTokenOf(db, tx, owner.id, tokenId);
    if (!token) throw notFound('The token');
    await token.destroy({ transaction: tx });
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'token.revoke',
      targetType: 'user',
      targetIds: [owner.id],
      context: { tokenId: token.id, name: token.name, scopes: scopesOf(token) },
    });
  });
}
