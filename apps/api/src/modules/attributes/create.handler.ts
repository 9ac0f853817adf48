import { ATTRIBUTES_MAX, type Attribute, type AttributeCreateInput, ROOT_ERROR_KEY } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import type { ManageCall } from './attributes.call.js';
import { auditedDefinition, definitionColumns, findDefinition, toAttribute } from './attributes.repository.js';

const refused = (key: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { errors: { [key]: [message] } });

/**
 * POST /attributes: 201 with the attribute. One row: no user is touched, so declaring one on a
 * million users locks nothing but the schema's own table.
 */
export async function createAttribute({ ctx, input }: ManageCall<AttributeCreateInput>): Promise<{ item: Attribute }> {
  const { db } = ctx;
  return writeTransaction(db, async (tx) => {
    const [{ n } = { n: 0 }] = await db.sequelize.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM attributes',
      {
        type: QueryTypes.SELECT,
        transaction: tx,
      },
    );
    if (Number(n) >= ATTRIBUTES_MAX) {
      throw refused(
        ROOT_ERROR_KEY,
        `There can be at most ${ATTRIBUTES_MAX} attributes: remove one you no longer use first.`,
      );
    }
    const taken = await db.sequelize.query('SELECT id FROM attributes WHERE `key` = :key', {
      replacements: { key: input.key },
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    if (taken.length) throw refused('key', `There is already an attribute with the key "${input.key}".`);
    const now = new Date();
    const columns = definitionColumns(input);
    await db.sequelize.query(
      `INSERT INTO attributes (\`key\`, label, type, enum_values, required, is_unique, validators, sensitivity, description, created_at, updated_at, enum_keys_ready)
       VALUES (:key, :label, :type, :enum_values, :required, :is_unique, :validators, :sensitivity, :description, :now, :now, 1)`,
      { replacements: { key: input.key, ...columns, now }, transaction: tx },
    );
    const created = await findDefinition(db, input.key, tx);
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'attribute.create',
      targetType: 'attribute',
      targetIds: [created.id],
      changes: diff(null, auditedDefinition(created)),
      subject: auditedDefinition(created),
    });
    return { item: toAttribute(created, 0) };
  });
}
