import { useCallback, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { ListState, ListStateCodec } from './list-state';

export interface ListStateUpdate {
  /** Replace the current history entry instead of adding one (while typing a search). */
  replace?: boolean;
}

/** A list's state and the changes a page makes to it. */
export interface ListController<S extends string, F extends object> {
  state: ListState<S, F>;
  setPage(page: number): void;
  setPerPage(perPage: number): void;
  setSort(sort: S | null, dir: ListState<S, F>['dir']): void;
  setSearch(q: string, options?: ListStateUpdate): void;
  setFilters(filters: F): void;
  patchFilters(patch: Partial<F>): void;
  clearFilters(): void;
}

// One function for every list without a `sanitize`, so the state is not read again on each render.
const asIs = <T>(state: T): T => state;

/**
 * A resource's list state read from and written to the URL. Deliberate changes add a history
 * entry, so Back undoes them; anything that changes which rows match goes back to page 1.
 * `sanitize` adjusts what the URL says to what the caller may see (a trash view someone may not
 * see opens as the plain list).
 */
export function useListState<S extends string, F extends object>(
  codec: ListStateCodec<S, F>,
  sanitize: (state: ListState<S, F>) => ListState<S, F> = asIs,
): ListController<S, F> {
  const { search } = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => sanitize(codec.parse(search)), [codec, search, sanitize]);
  // Two updates in one event must build on each other, not on the render's snapshot.
  const latest = useRef(state);
  latest.current = state;

  const update = useCallback(
    (patch: Partial<ListState<S, F>>, options: ListStateUpdate = {}) => {
      const next = { ...latest.current, ...patch };
      latest.current = next;
      const query = codec.toSearch(next);
      navigate({ search: query ? `?${query}` : '' }, { replace: options.replace ?? false });
    },
    [codec, navigate],
  );

  const actions = useMemo(
    () => ({
      setPage: (page: number) => update({ page }),
      setPerPage: (perPage: number) => update({ perPage, page: 1 }),
      setSort: (sort: S | null, dir: ListState<S, F>['dir']) => update({ sort, dir, page: 1 }),
      setSearch: (q: string, options?: ListStateUpdate) => update({ q, page: 1 }, options),
      setFilters: (filters: F) => update({ filters, page: 1 }),
      patchFilters: (patch: Partial<F>) => {
        const filters = { ...latest.current.filters, ...patch } as Record<string, unknown>;
        for (const key of Object.keys(filters)) {
          if (filters[key] === undefined) delete filters[key];
        }
        update({ filters: filters as F, page: 1 });
      },
      clearFilters: () => update({ q: '', filters: {} as F, page: 1 }),
    }),
    [update],
  );

  return { state, ...actions };
}
