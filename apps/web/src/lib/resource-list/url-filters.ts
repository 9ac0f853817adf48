import type { FilterMap, FilterValue, ListQueryDefinition, TrashedMode } from '@app/contracts';
import type { z } from 'zod';
import { toDayRange } from './list-state';

/**
 * A filter's value as the URL and the API take it, from its kind in the contract: text for
 * `contains`, the list for `in`, the value for `exact`, the day bounds for a date range, the
 * tristate's word for `boolean`, the scope for `trashed` (absent when it is the default).
 */
export type UrlValueOf<V> = V extends { kind: 'contains'; value: string }
  ? string
  : V extends { kind: 'in'; values: Array<infer T> }
    ? T[]
    : V extends { kind: 'exact'; value: infer T }
      ? T
      : V extends { kind: 'range'; from?: infer T }
        ? { from?: T; to?: T }
        : V extends { kind: 'boolean' }
          ? 'active' | 'inactive'
          : V extends { kind: 'trashed' }
            ? Exclude<TrashedMode, 'without'>
            : V extends { kind: 'null' }
              ? 'null' | 'notnull'
              : never;

type ParsedFilters<F extends FilterMap> = z.output<ListQueryDefinition<string, F, string>['input']>['filters'];

/** A resource's filters in the URL, each optional, derived from its contract. */
export type UrlFiltersOf<F extends FilterMap> = {
  -readonly [K in keyof ParsedFilters<F>]?: UrlValueOf<NonNullable<ParsedFilters<F>[K]>>;
};

function urlValue(filter: FilterValue): unknown {
  switch (filter.kind) {
    case 'contains':
    case 'exact':
      return filter.value;
    case 'in':
      return filter.values;
    // The contract hands date bounds back as instants; the URL's date inputs hold the UTC day.
    case 'range':
      return typeof (filter.from ?? filter.to) === 'string'
        ? toDayRange(filter as { from?: string; to?: string })
        : {
            ...(filter.from !== undefined ? { from: filter.from } : {}),
            ...(filter.to !== undefined ? { to: filter.to } : {}),
          };
    case 'boolean':
      return filter.value ? 'active' : 'inactive';
    case 'trashed':
      return filter.value === 'without' ? undefined : filter.value;
    case 'null':
      return filter.isNull ? 'null' : 'notnull';
  }
}

/**
 * The function `listStateCodec` needs: the contract's validated filters back to the plain values
 * a URL holds. It asks every filter's kind, so no resource re-declares its filters by hand. A
 * boolean filter is written in the tristate's words; one that does not read them is refused here,
 * at load, rather than silently dropped from every link.
 */
export function urlFiltersFrom<F extends FilterMap>(definition: { readonly filters: F }) {
  for (const [key, filter] of Object.entries(definition.filters)) {
    if (filter.kind === 'boolean' && !filter.schema.safeParse('active').success) {
      throw new Error(`Filter "${key}" is a plain boolean: the list kit writes boolean filters as tristate words.`);
    }
  }
  return (filters: ParsedFilters<F>): UrlFiltersOf<F> => {
    const out: Record<string, unknown> = {};
    for (const [key, filter] of Object.entries(filters as Record<string, FilterValue | undefined>)) {
      const value = filter ? urlValue(filter) : undefined;
      if (value !== undefined) out[key] = value;
    }
    return out as UrlFiltersOf<F>;
  };
}
