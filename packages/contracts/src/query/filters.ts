import { z } from 'zod';
import { boundInstant, toIsoInstant } from './dates';
import { BOOLEAN_WORDS_PATTERN, booleanish, delegate, lowerCased } from './fields';
import { DATE_BOUND_JSON_SCHEMA } from './dates';
import { anyCasePattern, describeInput, inputJsonSchema } from '../json-schema';
import { dedupe, orderBounds, toBooleanish, toLowerCase } from './normalise';
import { plainTextCheck } from '../text';

// The typed value of each filter form. A server-side engine switches on `kind` and maps each
// one to SQL once, for every resource.
export type ExactFilter<T = unknown> = { kind: 'exact'; value: T };
export type RangeFilter<T = unknown> = { kind: 'range'; from?: T; to?: T };
export type InFilter<T = unknown> = { kind: 'in'; values: T[] };
export type BooleanFilter = { kind: 'boolean'; value: boolean };
/** `value` is the raw text: the engine escapes `%`, `_` and `\` so they match literally. */
export type ContainsFilter = { kind: 'contains'; value: string };
export type NullFilter = { kind: 'null'; isNull: boolean };
export const TRASHED_MODES = ['without', 'with', 'only'] as const;
export type TrashedMode = (typeof TRASHED_MODES)[number];
/** Not a column test: it widens or narrows the soft-delete scope of the whole query. */
export type TrashedFilter = { kind: 'trashed'; value: TrashedMode };

export type FilterValue =
  | ExactFilter
  | RangeFilter
  | InFilter
  | BooleanFilter
  | ContainsFilter
  | NullFilter
  | TrashedFilter;
export type FilterKind = FilterValue['kind'];

/**
 * A filter form: its `kind` and the schema that turns the raw (trimmed, non-empty) value into a
 * typed {@link FilterValue}. Every schema accepts absence: it yields `undefined` (no filter),
 * or, for `trashed`, the default.
 */
export interface FilterDefinition<K extends FilterKind = FilterKind, S extends z.ZodType = z.ZodType> {
  readonly kind: K;
  readonly schema: S;
}

type Optional<Out, In> = z.ZodOptional<z.ZodType<Out, In>>;

function define<K extends FilterKind, Out, In>(kind: K, schema: z.ZodType<Out, In>) {
  return { kind, schema: schema.optional() } satisfies FilterDefinition<K, Optional<Out, In>>;
}

export function exact<V extends z.ZodType>(value: V) {
  const schema: z.ZodType<ExactFilter<z.output<V>>, z.input<V>> = value.transform((v) => ({
    kind: 'exact' as const,
    value: v,
  }));
  return define('exact', schema);
}

function bounds<V extends z.ZodType>(value: V) {
  return z.strictObject(
    { from: value.optional(), to: value.optional() },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'A range takes only "from" and "to".'
          : 'Give a range as "from" and/or "to", e.g. [from]=1&[to]=9.',
    },
  );
}

/** from/to, either optional; reversed bounds are swapped. Numbers compare numerically, dates as instants. */
export function range<V extends z.ZodType>(value: V) {
  const schema: z.ZodType<RangeFilter<z.output<V>>, { from?: z.input<V>; to?: z.input<V> }> = bounds(value).transform(
    ({ from, to }) => ({ kind: 'range' as const, ...orderBounds(from, to) }),
  );
  return define('range', schema);
}

/** One value or a list of them (deduped, at most `max`): matches any of them. */
export function oneOrMany<V extends z.ZodType>(value: V, options: { max?: number } = {}) {
  const max = options.max ?? 100;
  type Out = InFilter<z.output<V>>;
  const one = value.transform((v): Out => ({ kind: 'in', values: [v] }));
  const many = z
    .array(value)
    .max(max, `Give at most ${max} values.`)
    .transform((vs): Out => ({ kind: 'in', values: dedupe(vs) }));
  const item = inputJsonSchema(value);
  return define(
    'in',
    describeInput(
      delegate<Out, z.input<V> | z.input<V>[]>((raw) => (Array.isArray(raw) ? many : one)),
      {
        anyOf: [item, { type: 'array', items: item, maxItems: max }],
      },
    ),
  );
}

const BOOLEAN_MESSAGE = 'Use true or false (1 or 0 also work).';

export function boolean() {
  const schema: z.ZodType<BooleanFilter, boolean | string | number> = booleanish(
    z.boolean({ error: BOOLEAN_MESSAGE }),
  ).transform((value) => ({ kind: 'boolean' as const, value }));
  return define('boolean', schema);
}

/** Case-insensitive substring, free text (text.ts). `%`, `_` and `\` are ordinary characters here. */
export function textContains(options: { max?: number } = {}) {
  const max = options.max ?? 255;
  const schema: z.ZodType<ContainsFilter, string> = plainTextCheck(
    z.string({ error: 'This filter takes a single piece of text.' }),
    'filter',
  )
    .max(max, `The text can be at most ${max} characters long.`)
    .transform((value) => ({ kind: 'contains' as const, value }));
  return define('contains', schema);
}

/** `null` (the value is missing) or `notnull` (it is set). */
export function nullTest() {
  const schema: z.ZodType<NullFilter, string> = lowerCased(
    z.enum(['null', 'notnull'], { error: 'Use null or notnull.' }),
  ).transform((value) => ({ kind: 'null' as const, isNull: value === 'null' }));
  return define('null', schema);
}

const TRISTATE_MESSAGE = 'Use all, active, inactive, true or false.';

/** all | active | inactive | a boolean. `all` is no restriction, so the filter is left out. */
export function tristate() {
  const word = (raw: boolean | string | number): unknown => {
    const flag = toBooleanish(raw);
    if (typeof flag === 'boolean') return flag ? 'active' : 'inactive';
    return toLowerCase(raw);
  };
  const words = ['all', 'active', 'inactive'] as const;
  const accepted = describeInput(z.preprocess(word, z.enum(words, { error: TRISTATE_MESSAGE })), {
    anyOf: [
      { type: 'string', enum: [...words] },
      { type: 'boolean' },
      { type: 'string', pattern: anyCasePattern(words) },
      { type: 'string', pattern: BOOLEAN_WORDS_PATTERN },
    ],
  });
  const schema: z.ZodType<BooleanFilter | undefined, boolean | string | number> = accepted.transform((value) =>
    value === 'all' ? undefined : { kind: 'boolean' as const, value: value === 'active' },
  );
  return define('boolean', schema);
}

const DATE_MESSAGE = 'This is not a valid date. Use YYYY-MM-DD or an ISO 8601 date-time such as 2024-05-01T09:30:00Z.';

const dateBound = describeInput(
  z
    .string({ error: DATE_MESSAGE })
    .max(40, DATE_MESSAGE)
    .refine((text) => !Number.isNaN(boundInstant(text, 'from')), DATE_MESSAGE),
  DATE_BOUND_JSON_SCHEMA,
);

/**
 * `{from?, to?}`, each `YYYY-MM-DD` (a whole UTC day, inclusive) or an ISO 8601 date-time with
 * `Z` or an offset. Output bounds are ISO instants (`2024-05-01T00:00:00.000Z`). A range that
 * is empty as written is swapped, and date-only bounds are expanded after the swap, so
 * `from=2024-05-10&to=2024-05-01` still covers both whole days.
 */
export function dateRange() {
  const schema: z.ZodType<RangeFilter<string>, { from?: string; to?: string }> = bounds(dateBound).transform(
    ({ from, to }) => {
      const reversed = from !== undefined && to !== undefined && boundInstant(from, 'from') > boundInstant(to, 'to');
      const [lower, upper] = reversed ? [to, from] : [from, to];
      return {
        kind: 'range' as const,
        ...(lower !== undefined ? { from: toIsoInstant(boundInstant(lower, 'from')) } : {}),
        ...(upper !== undefined ? { to: toIsoInstant(boundInstant(upper, 'to')) } : {}),
      };
    },
  );
  return define('range', schema);
}

/** Soft-deleted records: `without` (default), `with`, `only`. Always present in the output. */
export function trashed() {
  const schema = lowerCased(
    z.enum(TRASHED_MODES, { error: 'Trashed must be one of: without, with, only.' }).optional(),
  ).transform((value): TrashedFilter => ({ kind: 'trashed', value: value ?? 'without' }));
  return { kind: 'trashed', schema } satisfies FilterDefinition<'trashed'>;
}

export type FilterMap = Record<string, FilterDefinition>;
