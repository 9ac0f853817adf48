import { type Direction, readQueryString, stringifyQuery } from '@app/contracts';
import type { z } from 'zod';

/** Everything that decides which rows a resource's table shows; it lives in the URL. */
export interface ListState<S extends string, F extends object> {
  q: string;
  page: number;
  perPage: number;
  sort: S | null;
  dir: Direction;
  filters: F;
}

/** The part of a contract's list query definition the URL state needs. */
interface ListQueryDefinitionLike<S extends string> {
  readonly input: z.ZodType<{
    q: string | null;
    page: number;
    perPage: number;
    sort: S | null;
    dir: Direction;
    filters: unknown;
  }>;
  readonly perPage: { readonly default: number };
}

/**
 * A resource's list state in the URL: read (validated by the contract's own schema, invalid
 * parts dropped) and written (defaults left out). `toFilters` turns the validated filters into
 * the plain values the URL and the API take.
 */
export interface ListStateCodec<S extends string, F extends object> {
  defaults: ListState<S, F>;
  parse(search: string): ListState<S, F>;
  toSearch(state: ListState<S, F>): string;
  /** Query and filters without paging or order: two states with the same scope match the same rows. */
  scopeKey(state: ListState<S, F>): string;
}

function withoutPath(raw: Record<string, unknown>, path: readonly PropertyKey[]): Record<string, unknown> {
  const [head, next] = path;
  if (typeof head !== 'string') return {};
  const copy = { ...raw };
  const inner = copy[head];
  // A bad filter costs only that filter; any other bad parameter only itself.
  if (head === 'filters' && typeof next === 'string' && inner && typeof inner === 'object') {
    const filters = { ...(inner as Record<string, unknown>) };
    delete filters[next];
    copy.filters = filters;
  } else {
    delete copy[head];
  }
  return copy;
}

export function listStateCodec<S extends string, F extends object, D extends ListQueryDefinitionLike<S>>(
  definition: D,
  toFilters: (filters: z.output<D['input']>['filters']) => F,
): ListStateCodec<S, F> {
  const defaults: ListState<S, F> = {
    q: '',
    page: 1,
    perPage: definition.perPage.default,
    sort: null,
    dir: 'asc',
    filters: {} as F,
  };

  /**
   * The list state a URL's query string stands for, validated by the same contract as the
   * server. A hand-edited or stale link never breaks the page: the invalid parts are dropped
   * (the rest is kept), and keys that cannot be read are skipped.
   */
  function parse(search: string): ListState<S, F> {
    let raw = readQueryString(search);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const result = definition.input.safeParse(raw);
      if (result.success) {
        const { q, page, perPage, sort, dir, filters } = result.data;
        return { q: q ?? '', page, perPage, sort, dir: sort ? dir : 'asc', filters: toFilters(filters) };
      }
      for (const issue of result.error.issues) {
        // An unknown filter is reported on `filters` itself, naming the keys: drop just those.
        const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
        for (const key of keys) raw = withoutPath(raw, key === undefined ? issue.path : [...issue.path, key]);
      }
    }
    return defaults;
  }

  return {
    defaults,
    parse,
    toSearch: (state) =>
      stringifyQuery({
        q: state.q || undefined,
        page: state.page > 1 ? state.page : undefined,
        perPage: state.perPage !== defaults.perPage ? state.perPage : undefined,
        sort: state.sort ?? undefined,
        dir: state.sort ? state.dir : undefined,
        filters: state.filters,
      }),
    scopeKey: (state) => stringifyQuery({ q: state.q || undefined, filters: state.filters }),
  };
}

/** What a resource's `list` procedure (and, with extras, its selection and export) is asked for. */
export function toListInput<S extends string, F extends object>(state: ListState<S, F>) {
  return {
    ...(state.q ? { q: state.q } : {}),
    page: state.page,
    perPage: state.perPage,
    ...(state.sort ? { sort: state.sort, dir: state.dir } : {}),
    filters: state.filters,
  };
}

/**
 * A date-range filter as the URL's date inputs hold it: the bounds come back from the contract as
 * instants, the inputs want the UTC day each falls on. Undefined when neither bound is set.
 */
export function toDayRange(range: { from?: string | undefined; to?: string | undefined } | undefined) {
  if (!range || (!range.from && !range.to)) return undefined;
  return {
    ...(range.from ? { from: range.from.slice(0, 10) } : {}),
    ...(range.to ? { to: range.to.slice(0, 10) } : {}),
  };
}

export function isFiltered(state: ListState<string, object>): boolean {
  return state.q !== '' || Object.keys(state.filters).length > 0;
}
