import type { AttributeDeleteQuery, AttributeImpact } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import type { ManageCall } from './attributes.call.js';
import { auditedDefinition, findDefinition, holdersOf } from './attributes.repository.js';

/** Values are removed this many at a time, each batch a short transaction of its own. */
const BATCH = 1_000;

/**
 * DELETE /attributes/{key}: the attribute and every value of it, answered with what went (200
 * `{impact}`: every holder's value); with `?dryRun=true`, the same answer and nothing removed. The values go first, in batches by user id, so removing an
 * attribute a million users hold never locks their values for long; then the definition and its
 * audit row, in one transaction.
 */
export async function deleteAttribute({
  ctx,
  input,
}: ManageCall<AttributeDeleteQuery & { key: string }>): Promise<{ impact: AttributeImpact }> {
  const { db } = ctx;
  const definition = await findDefinition(db, input.key);
  if (definition.changing && !input.dryRun) throw new AppError('ATTRIBUTE_BUSY');
  const holders = (await holdersOf(db, [definition.id])).get(definition.id) ?? 0;
  const impact = { holders, failing: holders };
  if (input.dryRun) return { impact };
  for (;;) {
    const batch = await db.sequelize.query<{ user_id: number | string }>(
      `SELECT user_id FROM user_attribute_values WHERE attribute_id = :id ORDER BY user_id LIMIT ${BATCH}`,
      { replacements: { id: definition.id }, type: QueryTypes.SELECT },
    );
    if (batch.length === 0) break;
    await db.sequelize.query('DELETE FROM user_attribute_values WHERE attribute_id = :id AND user_id IN (:ids)', {
      replacements: { id: definition.id, ids: batch.map((r) => Number(r.user_id)) },
    });
  }
  await writeTransaction(db, async (tx) => {
    const before = await findDefinition(db, input.key, tx, true);
    // A value written while the batches ran goes with the definition.
    await db.sequelize.query('DELETE FROM user_attribute_values WHERE attribute_id = :id', {
      replacements: { id: before.id },
      transaction: tx,
    });
    await db.sequelize.query('DELETE FROM attributes WHERE id = :id', {
      replacements: { id: before.id },
      transaction: tx,
    });
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'attribute.delete',
      targetType: 'attribute',
      targetIds: [before.id],
      changes: diff(auditedDefinition(before), null),
      context: { values_removed: holders },
      subject: auditedDefinition(before),
    });
  });
  return { impact };
}
