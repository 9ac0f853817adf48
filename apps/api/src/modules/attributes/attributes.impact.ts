import {
  type AttributeImpact,
  type AttributeRules,
  type AttributeType,
  type AttributeValue,
  checkAttributeValue,
} from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';
import { valueColumnOf } from '../../domain/attributes.list-query.js';
import { liveUserIds } from './attribute-values.write.js';
import type { RenewLease } from './attributes.change-lease.js';
import { type AttributeDefinition, storedValue, valueColumns } from './attributes.repository.js';

/**
 * What a schema change does to the values users already hold: which still pass under the new
 * definition (in their new form, when the type changes), which would break. Values are walked by
 * the primary key (attribute, user) in batches, so a million of them never sit in memory at once
 * and each batch that changes anything is a transaction of its own (no lock held for long).
 */

const BATCH = 1_000;

export interface NextDefinition extends AttributeRules {
  unique: boolean;
}

/** Whether a change can break or reshape stored values (a label, a description or a sensitivity cannot). */
export function affectsValues(current: AttributeDefinition, next: NextDefinition): boolean {
  return (
    current.type !== next.type ||
    current.unique !== next.unique ||
    JSON.stringify(current.values) !== JSON.stringify(next.values) ||
    JSON.stringify(current.validators) !== JSON.stringify(next.validators)
  );
}

/** A stored value as input to `type`: the same value, or the text or number it reads as. */
export function convertedFor(type: AttributeType, value: AttributeValue): unknown {
  if (type === 'number' || type === 'user') {
    if (typeof value === 'number') return value;
    if (typeof value === 'boolean') return value ? 1 : 0;
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  }
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (value === 1 || value === 0) return value === 1;
    const word = String(value).trim().toLowerCase();
    return word === 'true' || word === 'yes' ? true : word === 'false' || word === 'no' ? false : value;
  }
  return typeof value === 'string' ? value : String(value);
}

interface Judged {
  userId: number;
  /** The value in its new form, or null when it breaks. */
  next: AttributeValue | null;
  changed: boolean;
}

async function batchAfter(db: Database, attributeId: number, after: number) {
  return db.sequelize.query<{ user_id: number | string; text_value: string | null; number_value: number | null }>(
    `SELECT user_id, text_value, number_value FROM user_attribute_values
      WHERE attribute_id = :id AND user_id > :after ORDER BY user_id LIMIT ${BATCH}`,
    { replacements: { id: attributeId, after }, type: QueryTypes.SELECT },
  );
}

/** Judges one batch under `next` (a value already stored is never "required" to exist). */
async function judgeBatch(
  db: Database,
  current: AttributeDefinition,
  next: NextDefinition,
  rows: Awaited<ReturnType<typeof batchAfter>>,
): Promise<Judged[]> {
  const judged = rows.map((row) => {
    const value = storedValue(current.type, row) as AttributeValue;
    const check = checkAttributeValue({ ...next, required: false }, convertedFor(next.type, value));
    const nextValue = check.ok ? check.value : null;
    return { userId: Number(row.user_id), next: nextValue, changed: nextValue !== value };
  });
  if (next.type === 'user') {
    const named = judged.filter((j) => typeof j.next === 'number').map((j) => j.next as number);
    const live = await liveUserIds(db, null, named);
    for (const j of judged) if (typeof j.next === 'number' && !live.has(j.next)) j.next = null;
  }
  return judged;
}

/** Users whose value another user shares (case aside for text), once the attribute is unique. */
async function sharedValues(db: Database, current: AttributeDefinition): Promise<Set<number>> {
  const column = valueColumnOf(current.type);
  const rows = await db.sequelize.query<{ user_id: number | string }>(
    `SELECT v.user_id FROM user_attribute_values v
       JOIN (SELECT ${column} AS value FROM user_attribute_values WHERE attribute_id = :id
              GROUP BY ${column} HAVING COUNT(*) > 1) d ON d.value = v.${column}
      WHERE v.attribute_id = :id`,
    { replacements: { id: current.id }, type: QueryTypes.SELECT },
  );
  return new Set(rows.map((r) => Number(r.user_id)));
}

/**
 * Walks the attribute's values under `next`: `holders` and `failing` (breaking values, and,
 * when it becomes unique, values another user shares). With `apply`, clears the failing values,
 * rewrites the others in their new form and sets or drops their uniqueness, batch by batch.
 */
export async function walkValues(
  db: Database,
  current: AttributeDefinition,
  next: NextDefinition,
  apply: boolean,
  renew?: RenewLease,
): Promise<AttributeImpact> {
  const shared = next.unique && !current.unique ? await sharedValues(db, current) : new Set<number>();
  const retype = next.type !== current.type || next.unique !== current.unique;
  let holders = 0;
  let failing = 0;
  let after = 0;
  for (;;) {
    const rows = await batchAfter(db, current.id, after);
    if (rows.length === 0) break;
    await renew?.();
    after = Number(rows[rows.length - 1]?.user_id);
    holders += rows.length;
    const judged = await judgeBatch(db, current, next, rows);
    for (const j of judged) if (shared.has(j.userId)) j.next = null;
    const broken = judged.filter((j) => j.next === null);
    failing += broken.length;
    if (!apply) continue;
    const rewritten = judged.filter((j) => j.next !== null && (j.changed || retype));
    if (broken.length === 0 && rewritten.length === 0) continue;
    await writeTransaction(db, async (tx) => {
      if (broken.length) {
        await db.sequelize.query('DELETE FROM user_attribute_values WHERE attribute_id = :id AND user_id IN (:ids)', {
          replacements: { id: current.id, ids: broken.map((j) => j.userId) },
          transaction: tx,
        });
      }
      for (const j of rewritten) {
        await db.sequelize.query(
          `UPDATE user_attribute_values SET text_value = :text_value, number_value = :number_value,
                  unique_value = :unique_value WHERE attribute_id = :id AND user_id = :user`,
          {
            replacements: { ...valueColumns(j.next as AttributeValue, next.unique), id: current.id, user: j.userId },
            transaction: tx,
          },
        );
      }
    });
  }
  return { holders, failing };
}
