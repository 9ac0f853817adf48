import type { AttributeValue } from '@app/contracts';
import type { Skip } from './users.bulk-plan.js';

/**
 * A bulk setAttribute's batch as a plan (POST /users/bulk `operation: setAttribute`): the users
 * the users' rules let through (planBatch: existence, the trash, the ceiling) and what they hold
 * now in, who is written, who already holds the value and who is skipped out. The value itself
 * was judged once, at submission, by the plan every door shares (attributes.values-plan.ts).
 */

export interface AttributeBatchFacts {
  /** The attribute's label, for the skip sentences; whether one user at most may hold a value. */
  label: string;
  unique: boolean;
  /** The value to give (null: clear it). */
  value: AttributeValue | null;
  /** The users' names, for the sentences. */
  names: ReadonlyMap<number, string>;
  /** What each of the allowed users holds now (absent: nothing). */
  current: ReadonlyMap<number, AttributeValue>;
  /** A unique value's holder now, if any. */
  holder: number | null;
}

export interface AttributeBatchPlan {
  /** The users whose value changes. */
  changed: number[];
  /** Allowed, but already holding the value: applied, nothing changed. */
  unchanged: number[];
  skipped: Skip[];
}

/** `allowed` in id order: the first user of a batch takes a free unique value, the others are skipped. */
export function planAttributeBatch(allowed: readonly number[], facts: AttributeBatchFacts): AttributeBatchPlan {
  const changed: number[] = [];
  const unchanged: number[] = [];
  const skipped: Skip[] = [];
  const claims = facts.unique && facts.value !== null;
  let holder = facts.holder;
  for (const id of [...allowed].sort((a, b) => a - b)) {
    if ((facts.current.get(id) ?? null) === facts.value) {
      unchanged.push(id);
      continue;
    }
    if (claims && holder !== null && holder !== id) {
      skipped.push({
        id,
        code: 'ATTRIBUTE_VALUE_TAKEN',
        message: `${facts.names.get(id) ?? `User ${id}`} was left as is: another user already has this ${facts.label}, which must be unique.`,
      });
      continue;
    }
    if (claims) holder = id;
    changed.push(id);
  }
  return { changed, unchanged, skipped };
}
