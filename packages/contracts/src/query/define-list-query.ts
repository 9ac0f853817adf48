import { z } from 'zod';
import { constrainInput, describeInput, EMPTY_IS_ABSENT } from '../json-schema';
import { integer, lowerCased, numeric } from './fields';
import type { FilterMap } from './filters';
import { type Direction, normaliseRaw } from './normalise';
import { plainTextCheck, refusedTextIssues } from '../text';

export type { Direction } from './normalise';
export const DIRECTIONS = ['asc', 'desc'] as const;
export const MAX_SEARCH_LENGTH = 255;

export type PerPageLimits = {
  readonly default: number;
  readonly max: number;
  /** The page sizes a screen offers (the default among them, none above max). */
  readonly choices?: readonly number[];
};

/** A sort by a key within a family (`attributes.department`): `<prefix>.<key>`. */
export type KeyedSort<P extends string> = `${P}.${string}`;
const KEYED_SORT_KEY = /^[a-z][a-z0-9_]{0,63}$/;

export interface ListQueryConfig<S extends string, F extends FilterMap, Q extends string, P extends string = never> {
  /** Fields `q` searches (case-insensitive substring, any of them). */
  readonly search: readonly Q[];
  readonly filters: F;
  /** Fields a caller may sort by. */
  readonly sorts: readonly [S, ...S[]];
  /**
   * Families of sorts whose keys the server declares (`attributes` → `sort=attributes.<key>`):
   * the contract checks the form, the server that the key exists for the caller.
   */
  readonly keyedSorts?: readonly P[];
  /** The order when no sort is given. */
  readonly defaultOrder: readonly [S | 'id', Direction];
  readonly perPage: PerPageLimits;
}

type FilterShape<F extends FilterMap> = { [K in keyof F]: F[K]['schema'] };
/** The typed filters of a list query; a filter that was not given is absent. */
export type FiltersOf<F extends FilterMap> = z.output<z.ZodObject<FilterShape<F>>>;
export type FiltersInputOf<F extends FilterMap> = z.input<z.ZodObject<FilterShape<F>>>;

/** The internal list query: what a list procedure receives after validation. */
export interface ListQuery<S extends string, F extends FilterMap> {
  q: string | null;
  page: number;
  perPage: number;
  /**
   * The page size as asked (null when absent), before the default and cap: a server whose
   * configuration overrides the limits applies its own to this.
   */
  perPageRequested: number | null;
  sort: S | null;
  dir: Direction;
  /** Always ends with `id`, so paging is stable whatever the sort. */
  order: Array<[S | 'id', Direction]>;
  filters: FiltersOf<F>;
}

/** What a caller may send: a tRPC object or `parseQueryString`'s output (numbers as text). */
export interface ListQueryInput<S extends string, F extends FilterMap> {
  q?: string;
  page?: number | string;
  perPage?: number | string;
  sort?: S;
  dir?: string;
  filters?: FiltersInputOf<F>;
}

/**
 * A declared list query. `S` is every sort the input takes (keyed ones included, e.g.
 * `attributes.${string}`); `C` the resource's own sort columns (`sorts`).
 */
export interface ListQueryDefinition<S extends string, F extends FilterMap, Q extends string, C extends S = S> {
  readonly input: z.ZodType<ListQuery<S, F>, ListQueryInput<S, F>>;
  /** The same query plus extra top-level keys (normalised like the rest, then validated). */
  extend<E extends z.ZodRawShape>(
    shape: E,
  ): z.ZodType<ListQuery<S, F> & z.output<z.ZodObject<E>>, ListQueryInput<S, F> & z.input<z.ZodObject<E>>>;
  readonly search: readonly Q[];
  readonly sorts: readonly [C, ...C[]];
  /** Families of keyed sorts (`attributes` → `sort=attributes.<key>`). */
  readonly keyedSorts: readonly string[];
  readonly filters: F;
  readonly filterNames: ReadonlyArray<keyof F & string>;
  readonly defaultOrder: readonly [C | 'id', Direction];
  readonly perPage: PerPageLimits;
}

export type ListQueryOf<D extends { input: z.ZodType }> = z.output<D['input']>;

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function filtersSchema<F extends FilterMap>(filters: F) {
  const names = Object.keys(filters);
  const allowed = names.length > 0 ? names.join(', ') : 'none';
  const shape = Object.fromEntries(names.map((name) => [name, filters[name]?.schema])) as FilterShape<F>;
  const strict = z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.map((key) => `"${shorten(key)}"`).join(', ');
        const noun = issue.keys.length === 1 ? 'filter' : 'filters';
        return `Unknown ${noun} ${keys}. Allowed filters: ${allowed}.`;
      }
      if (issue.code === 'invalid_type') {
        return `Filters must be given by name, e.g. filters[${names[0] ?? 'name'}]=value. Allowed filters: ${allowed}.`;
      }
      return undefined;
    },
  });
  // prefault, not default: an absent `filters` is parsed as {}, so filter defaults still apply.
  return strict.prefault({} as z.input<typeof strict>);
}

function assertConfig(config: ListQueryConfig<string, FilterMap, string, string>): void {
  const { perPage, sorts, defaultOrder } = config;
  const whole = (n: number) => Number.isInteger(n) && n >= 1;
  if (!whole(perPage.default) || !whole(perPage.max) || perPage.default > perPage.max) {
    throw new Error(
      `perPage limits must be whole numbers with 1 ≤ default ≤ max (got ${perPage.default}/${perPage.max}).`,
    );
  }
  const choices = perPage.choices ?? [];
  if (choices.length > 0 && (!choices.includes(perPage.default) || choices.some((n) => !whole(n) || n > perPage.max))) {
    throw new Error(`perPage choices must include the default and stay within 1…max (got ${choices.join(', ')}).`);
  }
  if (defaultOrder[0] !== 'id' && !(sorts as readonly string[]).includes(defaultOrder[0])) {
    throw new Error(`defaultOrder field "${defaultOrder[0]}" is not one of the sorts.`);
  }
}

/**
 * Declares a resource's list query once: search fields, filters, sorts, order and page limits.
 * `input` validates the raw query (SPEC §5) and yields {@link ListQuery}; the declared parts are
 * kept as data so the server's engine and the SPA's table read the same lists.
 */
export function defineListQuery<
  const S extends string,
  const F extends FilterMap,
  const Q extends string,
  const P extends string = never,
>(config: ListQueryConfig<S, F, Q, P>): ListQueryDefinition<S | KeyedSort<P>, F, Q, S> {
  type T = S | KeyedSort<P>;
  assertConfig(config);
  const { sorts, defaultOrder, perPage } = config;
  const keyedSorts = config.keyedSorts ?? [];
  const sortMessage = `Sort must be one of: ${[...sorts, ...keyedSorts.map((p) => `${p}.<key>`)].join(', ')}.`;
  const keyed = (raw: unknown): raw is KeyedSort<P> => {
    if (typeof raw !== 'string') return false;
    const dot = raw.indexOf('.');
    return (keyedSorts as readonly string[]).includes(raw.slice(0, dot)) && KEYED_SORT_KEY.test(raw.slice(dot + 1));
  };
  const sortSchema: z.ZodType<T, T> =
    keyedSorts.length === 0
      ? z.enum(sorts, { error: sortMessage })
      : describeInput(
          z.custom<T>((raw) => (sorts as readonly unknown[]).includes(raw) || keyed(raw), { error: sortMessage }),
          {
            anyOf: [
              { type: 'string', enum: [...sorts] },
              { type: 'string', pattern: `^(${keyedSorts.join('|')})\\.[a-z][a-z0-9_]{0,63}$` },
            ],
          },
        );
  const pageMessage = 'Page must be a whole number of 1 or more.';
  const perPageMessage = `Per page must be a whole number of 1 or more (at most ${perPage.max} are shown).`;

  const base = z.object(
    {
      q: plainTextCheck(z.string({ error: 'Search must be a single piece of text.' }), 'search')
        .max(MAX_SEARCH_LENGTH, `Search can be at most ${MAX_SEARCH_LENGTH} characters long.`)
        .optional(),
      page: numeric(integer(pageMessage, { min: 1 }).default(1)),
      perPage: numeric(integer(perPageMessage, { min: 1 }).optional()),
      sort: sortSchema.optional(),
      dir: lowerCased(z.enum(DIRECTIONS, { error: 'Direction must be asc or desc.' }).optional()),
      filters: filtersSchema(config.filters),
    },
    { error: 'The list query must be a set of named parameters.' },
  );

  const toListQuery = (value: z.output<typeof base>): ListQuery<T, F> => {
    const sort = value.sort ?? null;
    // SPEC §5: with no sort the order is the default one, whatever `dir` says.
    const dir: Direction = sort === null ? defaultOrder[1] : (value.dir ?? 'asc');
    const field = sort ?? defaultOrder[0];
    const order: Array<[T | 'id', Direction]> =
      field === 'id'
        ? [['id', dir]]
        : [
            [field, dir],
            ['id', dir],
          ];
    const filters = Object.fromEntries(
      Object.entries(value.filters).filter(([, filter]) => filter !== undefined),
    ) as FiltersOf<F>;
    return {
      q: value.q ?? null,
      page: value.page,
      perPage: Math.min(value.perPage ?? perPage.default, perPage.max),
      perPageRequested: value.perPage ?? null,
      sort,
      dir,
      order,
      filters,
    };
  };

  // Steps 1–2 of the normalisation; text breaking the text rule is refused under any key, before
  // anything else is judged (see refusedTextIssues).
  const prepare = (raw: unknown, ctx: z.core.$RefinementCtx): unknown => {
    const value = normaliseRaw(raw) ?? {};
    for (const { path, message } of refusedTextIssues(value))
      ctx.addIssue({ code: 'custom', message, path, input: raw });
    return value;
  };

  const input = constrainInput(
    z.preprocess((raw: ListQueryInput<T, F>, ctx) => prepare(raw, ctx), base.transform(toListQuery)),
    { [EMPTY_IS_ABSENT]: true },
  ) as z.ZodType<ListQuery<T, F>, ListQueryInput<T, F>>;

  function extend<E extends z.ZodRawShape>(
    shape: E,
  ): z.ZodType<ListQuery<T, F> & z.output<z.ZodObject<E>>, ListQueryInput<T, F> & z.input<z.ZodObject<E>>> {
    const keys = Object.keys(shape);
    const schema = constrainInput(
      z.preprocess(
        prepare,
        base.extend(shape).transform((value) => {
          const record: Record<string, unknown> = value;
          const extras = Object.fromEntries(keys.filter((k) => record[k] !== undefined).map((k) => [k, record[k]]));
          // The base keys are all there (extend() only adds keys); TS cannot see it through generic E.
          return { ...toListQuery(value as unknown as z.output<typeof base>), ...extras };
        }),
      ),
      { [EMPTY_IS_ABSENT]: true },
    );
    // The transform assembles exactly this shape; zod cannot infer it through generic E.
    return schema as unknown as z.ZodType<
      ListQuery<T, F> & z.output<z.ZodObject<E>>,
      ListQueryInput<T, F> & z.input<z.ZodObject<E>>
    >;
  }

  return {
    input,
    extend,
    search: config.search,
    sorts,
    keyedSorts,
    filters: config.filters,
    filterNames: Object.keys(config.filters) as Array<keyof F & string>,
    defaultOrder,
    perPage,
  };
}
