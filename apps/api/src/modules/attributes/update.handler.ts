import type { Attribute, AttributeImpact, AttributeUpdateInput } from '@app/contracts';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import type { ManageCall } from './attributes.call.js';
import type { Database } from '../../db/database.js';
import { type RenewLease, withChangeLease } from './attributes.change-lease.js';
import { rebuildEnumKeys, retypesEnumKeys } from './attribute-enum-keys.js';
import { affectsValues, type NextDefinition, walkValues } from './attributes.impact.js';
import {
  type AttributeDefinition,
  auditedDefinition,
  definitionColumns,
  findDefinition,
  holdersOf,
  toAttribute,
} from './attributes.repository.js';

type UpdateInput = AttributeUpdateInput & { key: string };

export const conflict = (impact: AttributeImpact) =>
  new AppError(
    'ATTRIBUTE_CONFLICT',
    `${impact.failing.toLocaleString('en')} of the ${impact.holders.toLocaleString('en')} values users hold would break. Send onConflict: "clear" to clear them, or change the definition.`,
    { extra: { impact } },
  );

/**
 * PUT /attributes/{key}: the whole definition again. With `dryRun`, the impact only: how many
 * users hold a value and how many of those would break (a type they cannot be read as, a
 * validator they fail, a value shared once the attribute is unique). A change that breaks any is
 * refused (409 ATTRIBUTE_CONFLICT, with the impact) unless `onConflict: "clear"`, which clears
 * them; the others are rewritten in the new type's form. Making an attribute required holds new
 * users and cleared values to it; users without a value keep none (docs/decisions.md). The walk
 * and the new definition run under the attribute's change lease: its values cannot be written
 * meanwhile (attributes.change-lease.ts).
 */
export async function updateAttribute({
  ctx,
  input,
}: ManageCall<UpdateInput>): Promise<{ item: Attribute } | { impact: AttributeImpact }> {
  const { db } = ctx;
  const next = { ...input, values: input.type === 'enum' ? (input.values ?? []) : null };
  // Told to clear, the walk that judges the values also applies the change: one pass, not two.
  const clearing = !input.dryRun && input.onConflict === 'clear';
  if (input.dryRun) return { impact: await impactOf(db, await findDefinition(db, input.key), next, false) };
  return withChangeLease(db, input.key, async (current, renew) => {
    const impact = await impactOf(db, current, next, clearing, renew);
    if (impact.failing > 0 && !clearing) throw conflict(impact);
    if (!clearing && impact.holders > 0 && affectsValues(current, next)) {
      await walkValues(db, current, next, true, renew);
    }
    // Into or out of the list keys per role: not counted on until rebuilt (attribute-enum-keys.ts).
    const retyped = retypesEnumKeys(current.type, next.type);
    const now = new Date();
    const saved = await writeTransaction(db, async (tx) => {
      const before = await findDefinition(db, input.key, tx, true);
      const columns = definitionColumns(next);
      await db.sequelize.query(
        `UPDATE attributes SET label = :label, type = :type, enum_values = :enum_values, required = :required,
                is_unique = :is_unique, validators = :validators, sensitivity = :sensitivity,
                description = :description, updated_at = :now, changing_until = NULL${retyped ? ', enum_keys_ready = 0' : ''}
          WHERE id = :id`,
        { replacements: { ...columns, now, id: before.id }, transaction: tx },
      );
      const after = await findDefinition(db, input.key, tx);
      await recordChange(db, tx, {
        ...auditOriginOf(ctx),
        action: 'attribute.update',
        targetType: 'attribute',
        targetIds: [after.id],
        changes: diff(auditedDefinition(before), auditedDefinition(after)),
        context: impact.failing > 0 ? { cleared: impact.failing } : {},
        subject: auditedDefinition(after),
      });
      const holders = await holdersOf(db, [after.id], tx);
      return { item: toAttribute(after, holders.get(after.id) ?? 0) };
    });
    if (retyped) await rebuildEnumKeys(db, current.id, now);
    return saved;
  });
}

/** The impact of a change: walked when it can touch stored values, else every holder and none failing. */
async function impactOf(
  db: Database,
  current: AttributeDefinition,
  next: NextDefinition,
  apply: boolean,
  renew?: RenewLease,
): Promise<AttributeImpact> {
  if (!affectsValues(current, next)) {
    return { holders: (await holdersOf(db, [current.id])).get(current.id) ?? 0, failing: 0 };
  }
  return walkValues(db, current, next, apply, renew);
}
