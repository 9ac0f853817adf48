import { type AttributeValue, attributePath, type BulkInput } from '@app/contracts';
import { Op, type Transaction } from 'sequelize';
import type { HandlerContext } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { planAttributeValues } from '../../domain/attributes.values-plan.js';
import { visibleTo } from '../../domain/attributes.visibility.js';
import { AppError } from '../../errors.js';
import { liveUserIds } from '../attributes/attribute-values.write.js';
import { type AttributeDefinition, lockDefinitionsShared } from '../attributes/attributes.repository.js';
import { usesAttributes, withAttributeScope } from './users.attributes-query.js';
import { usersWhere } from './users.list-query.js';

/**
 * Bulk setAttribute's request-wide part: the attribute and the value, judged once by the plan
 * every door shares (domain/attributes.values-plan.ts) and the live-user check of a user
 * reference, at submission and again at each chunk of a job (the definition may have changed,
 * the submitter may have lost sight of a sensitive attribute, the named user may be gone).
 */

/** The attribute to set and its value in canonical form (null clears). */
export interface BulkAttribute {
  definition: AttributeDefinition;
  value: AttributeValue | null;
}

const refusal = (field: 'attribute' | 'value', message: string) =>
  new AppError('VALIDATION_FAILED', message, { errors: { [field]: [message] } });

/** The attribute and value, or why not (a sensitive attribute the caller may not see does not exist). */
async function judge(
  ctx: HandlerContext,
  tx: Transaction,
  key: string,
  raw: AttributeValue | null,
): Promise<BulkAttribute | AppError> {
  const definitions = await lockDefinitionsShared(ctx.db, tx, [key]);
  const plan = planAttributeValues(ctx.actor, definitions, { [key]: raw }, { creating: false });
  if ('errors' in plan) {
    const message = plan.errors[attributePath(key)]?.[0] ?? `There is no attribute with the key "${key}".`;
    const known = definitions.some((d) => d.key === key && visibleTo(ctx.actor, d.sensitivity));
    return refusal(known ? 'value' : 'attribute', message);
  }
  const [write] = plan.writes;
  if (!write) return refusal('attribute', `There is no attribute with the key "${key}".`);
  const { definition, value } = write;
  if (definition.type === 'user' && value !== null) {
    const live = await liveUserIds(ctx.db, tx, [Number(value)]);
    if (!live.has(Number(value))) {
      return refusal('value', `${definition.label} must name a user who exists and is not deleted.`);
    }
  }
  return { definition, value };
}

/** Whether the request names more than one user (a selection: two matches are enough to know). */
async function manyUsers(ctx: HandlerContext, tx: Transaction, input: BulkInput): Promise<boolean> {
  if (!input.selection) return new Set(input.ids ?? []).size > 1;
  const { except } = input.selection;
  const asked = input.selection.query;
  const query = usesAttributes(asked) ? (await withAttributeScope(ctx.db, ctx.actor, asked)).query : asked;
  const where = usersWhere(ctx.db, query, except.length ? { id: { [Op.notIn]: except } } : null);
  const found = await ctx.db.models.User.findAll({
    attributes: ['id'],
    where,
    limit: 2,
    paranoid: false,
    transaction: tx,
  });
  return found.length > 1;
}

/**
 * The request's attribute and value (POST /users/bulk and a job's submission), or its 422: an
 * unknown or unseen attribute, a value the definition refuses, a user reference to nobody, one
 * unique value for several users.
 */
export async function assertBulkAttribute(
  ctx: HandlerContext,
  tx: Transaction | undefined,
  input: BulkInput,
): Promise<BulkAttribute> {
  const work = async (t: Transaction) => {
    const judged = await judge(ctx, t, input.attribute ?? '', input.value ?? null);
    if (judged instanceof AppError) throw judged;
    if (judged.definition.unique && judged.value !== null && (await manyUsers(ctx, t, input))) {
      throw refusal(
        'value',
        `${judged.definition.label} is unique: one value can be given to one user only, and this request names several.`,
      );
    }
    return judged;
  };
  return tx ? work(tx) : writeTransaction(ctx.db, work);
}

/** What a job keeps of it (beside the kit's keys): the key, the label (for the job's pages) and the value. */
export const storedAttribute = (a: BulkAttribute) => ({
  attribute: a.definition.key,
  attributeLabel: a.definition.label,
  value: a.value,
});

/** A job's chunk asks again, from what it kept: the attribute and value now, or the sentence the job fails with. */
export async function recheckBulkAttribute(
  ctx: HandlerContext,
  tx: Transaction,
  stored: Readonly<Record<string, unknown>>,
): Promise<BulkAttribute | { fail: string }> {
  const key = typeof stored.attribute === 'string' ? stored.attribute : '';
  const value = stored.value;
  const raw = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
  const judged = await judge(ctx, tx, key, raw);
  return judged instanceof AppError ? { fail: `The value can no longer be set: ${judged.message}` } : judged;
}

/** What a job's submission audit keeps of its stored arguments: a sensitive value stays out (its key is kept). */
export function auditedAttribute(stored: Record<string, unknown>, a: BulkAttribute): Record<string, unknown> {
  if (a.definition.sensitivity !== 'sensitive') return stored;
  const { value: _withheld, ...kept } = stored;
  return { ...kept, sensitivity: { [attributePath(a.definition.key)]: 'sensitive' } };
}
