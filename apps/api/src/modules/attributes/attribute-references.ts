import { attributePath } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { HandlerContext } from '../../context.js';
import { auditOriginOf, recordChanges } from '../../journal/journal.js';

/** Ids per IN (): a bulk chunk's deletions in one statement. */
const IDS_PER_STATEMENT = 1_000;

interface Reference {
  attribute_id: number | string;
  user_id: number | string;
  number_value: number | string;
  key: string;
  sensitivity: string;
}

/**
 * A `user` attribute names a live user (SPEC §14): deleting users clears every value that names
 * them, in the deletion's transaction, each holder's change audited as an update of theirs
 * (`attributes.<key>` from the deleted id to nothing) and announced like any. The rows are read
 * with a locking read, which sees a reference a concurrent write committed after this
 * transaction's snapshot (that write share-locked the deleted user's row, so it committed before
 * the deletion could lock it, or it waits and then refuses the deleted user).
 */
export async function clearReferencesTo(
  ctx: HandlerContext,
  tx: Transaction,
  deletedIds: readonly number[],
): Promise<number> {
  const { db } = ctx;
  const forUpdate = db.dialect === 'mysql' ? ' FOR UPDATE' : '';
  let cleared = 0;
  for (let i = 0; i < deletedIds.length; i += IDS_PER_STATEMENT) {
    const ids = deletedIds.slice(i, i + IDS_PER_STATEMENT);
    // The join names only `user` attributes: their values are user ids in number_value, and the
    // (attribute_id, number_value) index finds who holds each.
    const found = await db.sequelize.query<Reference>(
      `SELECT v.attribute_id, v.user_id, v.number_value, a.\`key\`, a.sensitivity
         FROM attributes a JOIN user_attribute_values v ON v.attribute_id = a.id
        WHERE a.type = 'user' AND v.number_value IN (:ids)
        ORDER BY v.attribute_id, v.user_id${forUpdate}`,
      { replacements: { ids }, type: QueryTypes.SELECT, transaction: tx },
    );
    if (found.length === 0) continue;
    // The rows just locked, in one statement: nothing else can have changed them since.
    await db.sequelize.query(
      'DELETE FROM user_attribute_values WHERE attribute_id IN (:attributes) AND number_value IN (:ids)',
      { replacements: { attributes: [...new Set(found.map((r) => Number(r.attribute_id)))], ids }, transaction: tx },
    );
    await recordChanges(
      db,
      tx,
      found.map((r) => {
        const field = attributePath(r.key);
        return {
          ...auditOriginOf(ctx),
          action: 'user.update' as const,
          targetType: 'user',
          targetIds: [Number(r.user_id)],
          changes: { [field]: { before: Number(r.number_value), after: null } },
          context: {
            reason: 'reference_deleted',
            ...(r.sensitivity === 'none' ? {} : { sensitivity: { [field]: r.sensitivity } }),
          },
        };
      }),
    );
    cleared += found.length;
  }
  return cleared;
}
