import {
  type AttributeCondition,
  type AttributeConditions,
  type AttributeFilterScalar,
  type AttributeRules,
  type AttributeType,
  attributePath,
  checkAttributeValue,
  isCalendarDate,
  toBooleanish,
  toNumberish,
} from '@app/contracts';

/**
 * How a list query may use custom attributes (SPEC §14), decided from the definitions the caller
 * may see: which keys exist, which filter shape each type takes, what each value means, which
 * sort and which export columns. A key the caller may not see (a sensitive attribute without
 * attributes.sensitive.view) is refused exactly as a key nobody declared, so a filter cannot
 * probe a value it could not read. Pure: the definitions come in, a scope or a refusal goes out.
 */

/** What judging needs of a definition. */
export interface AttributeTargetFacts {
  id: number;
  key: string;
  label: string;
  type: AttributeType;
  values: readonly string[] | null;
  /** Its values are in the list keys per role (an enumeration, once they are built). */
  roleKeyed?: boolean;
}

/** Where an attribute's values are stored: text types as text, the rest as a number (yes/no 1/0). */
export type ValueColumn = 'text_value' | 'number_value';

export interface AttributeTarget {
  id: number;
  key: string;
  label: string;
  type: AttributeType;
  column: ValueColumn;
  /** Its values are in the list keys per role (users.enum-keys.ts). */
  roleKeyed: boolean;
}

export type StoredScalar = string | number;

export type ResolvedCondition =
  | { target: AttributeTarget; op: 'in'; values: StoredScalar[] }
  | { target: AttributeTarget; op: 'range'; from?: StoredScalar; to?: StoredScalar }
  | { target: AttributeTarget; op: 'contains'; value: string }
  | { target: AttributeTarget; op: 'empty'; empty: boolean };

/** The attributes a users list query uses, judged: its conditions and its sort. */
export interface AttributeScope {
  conditions: ResolvedCondition[];
  sort: AttributeTarget | null;
}

export type Judged<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

const TEXT_TYPES: readonly AttributeType[] = ['string', 'email', 'url', 'enum', 'date'];
const RANGE_TYPES: readonly AttributeType[] = ['number', 'date'];
const CONTAINS_TYPES: readonly AttributeType[] = ['string', 'email', 'url'];

export const valueColumnOf = (type: AttributeType): ValueColumn =>
  TEXT_TYPES.includes(type) ? 'text_value' : 'number_value';

const targetOf = (d: AttributeTargetFacts): AttributeTarget => ({
  id: d.id,
  key: d.key,
  label: d.label,
  type: d.type,
  column: valueColumnOf(d.type),
  roleKeyed: d.roleKeyed === true,
});

/** The type alone judges a filter's value: a bound or a pattern of the definition does not. */
const typeRules = (d: AttributeTargetFacts): AttributeRules => ({
  label: d.label,
  type: d.type,
  values: d.values,
  required: false,
  validators: {},
});

/** A query string's text read as the type reads it (numbers and yes/no arrive as text). */
function typed(type: AttributeType, raw: AttributeFilterScalar): unknown {
  if (type === 'number' || type === 'user') return toNumberish(raw);
  if (type === 'boolean') return toBooleanish(raw);
  return raw;
}

type Refusal = { message: string };

/** A value as stored (yes/no as 1/0), judged by the one value checker of every door. */
function judgeValue(d: AttributeTargetFacts, raw: AttributeFilterScalar): StoredScalar | Refusal {
  const check = checkAttributeValue(typeRules(d), typed(d.type, raw));
  if (!check.ok) return { message: check.message };
  if (check.value === null) return { message: `${d.label} needs a value here.` };
  return typeof check.value === 'boolean' ? (check.value ? 1 : 0) : check.value;
}

function judgeBound(d: AttributeTargetFacts, raw: AttributeFilterScalar): StoredScalar | Refusal {
  const value = typed(d.type, raw);
  if (d.type === 'number') {
    return typeof value === 'number' && Number.isFinite(value) ? value : { message: `${d.label} must be a number.` };
  }
  return typeof value === 'string' && isCalendarDate(value)
    ? value
    : { message: `${d.label} must be a date, as YYYY-MM-DD.` };
}

const refused = (field: string, message: string): Judged<never> => ({ ok: false, field, message });

function judgeCondition(d: AttributeTargetFacts, c: AttributeCondition, field: string): Judged<ResolvedCondition> {
  const target = targetOf(d);
  if (Array.isArray(c)) {
    const values: StoredScalar[] = [];
    for (const raw of c) {
      const value = judgeValue(d, raw);
      if (typeof value === 'object') return refused(field, value.message);
      values.push(value);
    }
    return { ok: true, value: { target, op: 'in', values: [...new Set(values)] } };
  }
  if ('contains' in c) {
    if (!CONTAINS_TYPES.includes(d.type)) return refused(field, `${d.label} cannot be filtered by "contains".`);
    return { ok: true, value: { target, op: 'contains', value: c.contains } };
  }
  if ('empty' in c) return { ok: true, value: { target, op: 'empty', empty: c.empty } };
  if (!RANGE_TYPES.includes(d.type)) return refused(field, `${d.label} cannot be filtered by a range.`);
  const from = c.from === undefined ? undefined : judgeBound(d, c.from);
  const to = c.to === undefined ? undefined : judgeBound(d, c.to);
  for (const bound of [from, to]) if (typeof bound === 'object') return refused(field, bound.message);
  const [a, b] = [from, to] as [StoredScalar | undefined, StoredScalar | undefined];
  // Reversed bounds are a slip, not a request for nothing (as the list's other ranges). Both
  // bounds have the type's form (numbers, or YYYY-MM-DD text), so `>` orders them.
  const [lower, upper] = a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];
  return {
    ok: true,
    value: {
      target,
      op: 'range',
      ...(lower !== undefined ? { from: lower } : {}),
      ...(upper !== undefined ? { to: upper } : {}),
    },
  };
}

const unknownKey = (key: string, use: string) => `There is no attribute "${key}" to ${use}.`;

/**
 * Judges a list query's attribute conditions and sort (and an export's attribute columns)
 * against the definitions the caller may see. The first refusal names its field:
 * `filters.attributes.<key>`, `sort` or `columns`.
 */
export function judgeAttributeUse(
  visible: readonly AttributeTargetFacts[],
  use: { conditions: AttributeConditions | undefined; sortKey: string | null; columnKeys?: readonly string[] },
): Judged<AttributeScope & { columns: AttributeTarget[] }> {
  const byKey = new Map(visible.map((d) => [d.key, d]));
  const conditions: ResolvedCondition[] = [];
  for (const [key, condition] of Object.entries(use.conditions ?? {})) {
    const field = `filters.${attributePath(key)}`;
    const definition = byKey.get(key);
    if (!definition) return refused(field, unknownKey(key, 'filter by'));
    const judged = judgeCondition(definition, condition, field);
    if (!judged.ok) return judged;
    conditions.push(judged.value);
  }
  let sort: AttributeTarget | null = null;
  if (use.sortKey !== null) {
    const definition = byKey.get(use.sortKey);
    if (!definition) return refused('sort', unknownKey(use.sortKey, 'sort by'));
    sort = targetOf(definition);
  }
  const columns: AttributeTarget[] = [];
  for (const key of use.columnKeys ?? []) {
    const definition = byKey.get(key);
    if (!definition) return refused('columns', unknownKey(key, 'export'));
    columns.push(targetOf(definition));
  }
  return { ok: true, value: { conditions, sort, columns } };
}
