import type { FilterMap, ListQueryDefinition } from '@app/contracts';
import { type ListState, type ListStateCodec, listStateCodec } from './list-state';
import { type UrlFiltersOf, urlFiltersFrom } from './url-filters';

/** A table whose columns the viewer may hide and whose density they may choose, remembered per browser. */
export interface ResourceListPreferences<K extends string> {
  /** localStorage keys are `<prefix>_density` and `<prefix>_hidden_columns`. */
  storagePrefix: string;
  /** The contract's column keys, in table order. */
  columns: readonly K[];
  /** Columns that can never be hidden (the link to the record). */
  locked: ReadonlySet<K>;
}

/** A resource's list as the web kit knows it: everything here is read from the contract once. */
export interface ResourceListDeclaration<S extends string, F extends object, K extends string> {
  codec: ListStateCodec<S, F>;
  perPageOptions: readonly number[];
  /** Absent: a fixed view (every column, comfortable rows). */
  preferences?: ResourceListPreferences<K>;
}

/**
 * Declares a list page from its contract's list query: the URL state (sorts, page sizes and every
 * filter by its kind) follows from it, so a resource declares nothing twice.
 */
export function defineResourceList<S extends string, F extends FilterMap, Q extends string, K extends string = never>(
  query: ListQueryDefinition<S, F, Q>,
  preferences?: ResourceListPreferences<K>,
): ResourceListDeclaration<S, UrlFiltersOf<F>, K> {
  return {
    codec: listStateCodec<S, UrlFiltersOf<F>, ListQueryDefinition<S, F, Q>>(query, urlFiltersFrom(query)),
    perPageOptions: query.perPage.choices ?? [query.perPage.default],
    ...(preferences ? { preferences } : {}),
  };
}

/** The state type of a declared list. */
export type StateOf<D> = D extends ResourceListDeclaration<infer S, infer F, string> ? ListState<S, F> : never;
/** The URL filters of a declared list. */
export type FiltersOf<D> = D extends ResourceListDeclaration<string, infer F, string> ? F : never;
