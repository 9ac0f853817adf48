import { attributePath, type UserAttributesInput } from '@app/contracts';
import { QueryTypes, type Transaction, UniqueConstraintError } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { type AttributeErrors, type AttributeWrite, planAttributeValues } from '../../domain/attributes.values-plan.js';
import { AppError } from '../../errors.js';
import {
  type AttributeDefinition,
  listDefinitions,
  lockDefinitionsShared,
  storedValue,
  valueColumns,
} from './attributes.repository.js';

/** Before and after of the values a write changed, keyed `attributes.<key>` as the audit diff is. */
export interface AttributeChange {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** The sensitivity of each changed field that has one: the audit and webhooks read it. */
  sensitivity: Record<string, 'personal' | 'sensitive'>;
}

const NO_CHANGE: AttributeChange = { before: {}, after: {}, sensitivity: {} };

const refused = (errors: AttributeErrors) =>
  new AppError('VALIDATION_FAILED', Object.values(errors)[0]?.[0] ?? 'An attribute was refused.', { errors });

/**
 * The definitions a write of `input` is judged by: the attributes it names, share-locked (see
 * lockDefinitionsShared), and for a creation every other one too, for the required ones.
 */
async function definitionsFor(
  db: Database,
  tx: Transaction,
  input: UserAttributesInput,
  creating: boolean,
): Promise<AttributeDefinition[]> {
  const named = await lockDefinitionsShared(db, tx, Object.keys(input));
  if (!creating) return named;
  const keys = new Set(named.map((d) => d.key));
  return [...named, ...(await listDefinitions(db, tx)).filter((d) => !keys.has(d.key))];
}

/**
 * The users among `ids` that are live. In a write's transaction they are share-locked: a deletion
 * waits for the write, or the write sees it. Without one (a schema change's judging walk), a read.
 */
export async function liveUserIds(db: Database, tx: Transaction | null, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const share = tx && db.dialect === 'mysql' ? ' LOCK IN SHARE MODE' : '';
  const rows = await db.sequelize.query<{ id: number | string }>(
    `SELECT id FROM users WHERE id IN (:ids) AND deleted_at IS NULL${share}`,
    { replacements: { ids: [...ids] }, type: QueryTypes.SELECT, ...(tx ? { transaction: tx } : {}) },
  );
  return new Set(rows.map((r) => Number(r.id)));
}

/** The checks that need the database: a user reference names a live user, a unique value is free. */
async function storedFactErrors(
  db: Database,
  tx: Transaction,
  userId: number,
  writes: readonly AttributeWrite<AttributeDefinition>[],
): Promise<AttributeErrors> {
  const errors: AttributeErrors = {};
  const references = writes.filter((w) => w.definition.type === 'user' && w.value !== null);
  const live = await liveUserIds(
    db,
    tx,
    references.map((w) => Number(w.value)),
  );
  for (const w of references) {
    if (!live.has(Number(w.value))) {
      errors[attributePath(w.definition.key)] = [
        `${w.definition.label} must name a user who exists and is not deleted.`,
      ];
    }
  }
  for (const w of writes.filter((x) => x.definition.unique && x.value !== null)) {
    const { unique_value } = valueColumns(w.value as NonNullable<typeof w.value>, true);
    const [holder] = await db.sequelize.query<{ user_id: number }>(
      `SELECT user_id FROM user_attribute_values WHERE attribute_id = :attribute AND unique_value = :value AND user_id <> :userId LIMIT 1`,
      {
        replacements: { attribute: w.definition.id, value: unique_value, userId },
        type: QueryTypes.SELECT,
        transaction: tx,
      },
    );
    if (holder) errors[attributePath(w.definition.key)] = [takenMessage(w.definition)];
  }
  return errors;
}

const takenMessage = (d: AttributeDefinition) => `Another user already has this ${d.label}: it must be unique.`;

/** The user's current values of the written attributes, locked for the write. */
async function currentValues(
  db: Database,
  tx: Transaction,
  userId: number,
  definitions: readonly AttributeDefinition[],
): Promise<Map<number, unknown>> {
  const forUpdate = db.dialect === 'mysql' ? ' FOR UPDATE' : '';
  const rows = await db.sequelize.query<{
    attribute_id: number | string;
    text_value: string | null;
    number_value: number | string | null;
  }>(
    `SELECT attribute_id, text_value, number_value FROM user_attribute_values
      WHERE user_id = :userId AND attribute_id IN (:ids)${forUpdate}`,
    { replacements: { userId, ids: definitions.map((d) => d.id) }, type: QueryTypes.SELECT, transaction: tx },
  );
  const byId = new Map(definitions.map((d) => [d.id, d]));
  const out = new Map<number, unknown>();
  for (const r of rows) {
    const d = byId.get(Number(r.attribute_id));
    if (d) out.set(d.id, storedValue(d.type, r));
  }
  return out;
}

/** Stores the writes (a value replaces the old one, null removes it), answering what changed. */
export async function storeAttributeValues(
  db: Database,
  tx: Transaction,
  userId: number,
  writes: readonly AttributeWrite<AttributeDefinition>[],
  { creating }: { creating: boolean },
): Promise<AttributeChange> {
  if (writes.length === 0) return NO_CHANGE;
  const definitions = writes.map((w) => w.definition);
  const current = creating ? new Map<number, unknown>() : await currentValues(db, tx, userId, definitions);
  const changed = writes.filter((w) => (current.get(w.definition.id) ?? null) !== w.value);
  if (changed.length === 0) return NO_CHANGE;
  await db.sequelize.query('DELETE FROM user_attribute_values WHERE user_id = :userId AND attribute_id IN (:ids)', {
    replacements: { userId, ids: changed.map((w) => w.definition.id) },
    transaction: tx,
  });
  const stored = changed.filter((w) => w.value !== null);
  if (stored.length > 0) {
    try {
      await db.sequelize.query(
        `INSERT INTO user_attribute_values (attribute_id, user_id, text_value, number_value, unique_value)
         VALUES ${stored.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        {
          replacements: stored.flatMap((w) => {
            const c = valueColumns(w.value as NonNullable<typeof w.value>, w.definition.unique);
            return [w.definition.id, userId, c.text_value, c.number_value, c.unique_value];
          }),
          transaction: tx,
        },
      );
    } catch (err) {
      // Two writers racing for one unique value: the index decides, the loser gets the same 422.
      if (!(err instanceof UniqueConstraintError)) throw err;
      const errors: AttributeErrors = {};
      for (const w of stored.filter((x) => x.definition.unique)) {
        errors[attributePath(w.definition.key)] = [takenMessage(w.definition)];
      }
      throw refused(errors);
    }
  }
  const change: AttributeChange = { before: {}, after: {}, sensitivity: {} };
  for (const w of changed) {
    const field = attributePath(w.definition.key);
    change.before[field] = current.get(w.definition.id) ?? null;
    change.after[field] = w.value;
    if (w.definition.sensitivity !== 'none') change.sensitivity[field] = w.definition.sensitivity;
  }
  return change;
}

/**
 * A create's or an update's custom attribute values, judged and stored in the write's
 * transaction (after the user's row is locked or inserted): the plan's rules
 * (domain/attributes.values-plan.ts), then a user reference must name a live user and a unique
 * value must be free. Refused as one 422 naming every refused attribute (`attributes.<key>`).
 */
export async function writeAttributeValues(
  db: Database,
  tx: Transaction,
  actor: Pick<Actor, 'permissions'>,
  userId: number,
  input: UserAttributesInput | undefined,
  { creating }: { creating: boolean },
): Promise<AttributeChange> {
  const given = input ?? {};
  if (!creating && Object.keys(given).length === 0) return NO_CHANGE;
  const definitions = await definitionsFor(db, tx, given, creating);
  const plan = planAttributeValues(actor, definitions, given, { creating });
  if ('errors' in plan) throw refused(plan.errors);
  const errors = await storedFactErrors(db, tx, userId, plan.writes);
  if (Object.keys(errors).length > 0) throw refused(errors);
  return storeAttributeValues(db, tx, userId, plan.writes, { creating });
}

/**
 * The audit context that marks which changed fields are `personal` or `sensitive`: the audit's
 * readers and the webhook events read it (a value's sensitivity when it was written holds even
 * if the attribute is later relaxed or removed). Nothing when no such field changed.
 */
export function sensitivityContext(change: AttributeChange): { sensitivity?: Record<string, string> } {
  return Object.keys(change.sensitivity).length > 0 ? { sensitivity: change.sensitivity } : {};
}
