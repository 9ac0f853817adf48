import { useCallback, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { parseListState, toSearch, type UsersListFilters, type UsersListState } from './users-list-state';

export interface ListStateUpdate {
  /** Replace the current history entry instead of adding one (while typing a search). */
  replace?: boolean;
}

/**
 * The list state read from and written to the URL. Deliberate changes add a history entry, so
 * Back undoes them; anything that changes which rows match goes back to page 1.
 */
export function useUsersListState({ allowTrash }: { allowTrash: boolean }) {
  const { search } = useLocation();
  const navigate = useNavigate();
  const state = useMemo((): UsersListState => {
    const parsed = parseListState(search);
    // A shared link to the trash opens as the plain list for someone who may not see the trash.
    if (allowTrash || !parsed.filters.trashed) return parsed;
    const { trashed: _hidden, ...filters } = parsed.filters;
    return { ...parsed, filters };
  }, [search, allowTrash]);
  // Two updates in one event must build on each other, not on the render's snapshot.
  const latest = useRef(state);
  latest.current = state;

  const update = useCallback(
    (patch: Partial<UsersListState>, options: ListStateUpdate = {}) => {
      const next = { ...latest.current, ...patch };
      latest.current = next;
      const query = toSearch(next);
      navigate({ search: query ? `?${query}` : '' }, { replace: options.replace ?? false });
    },
    [navigate],
  );

  const actions = useMemo(
    () => ({
      setPage: (page: number) => update({ page }),
      setPerPage: (perPage: number) => update({ perPage, page: 1 }),
      setSort: (sort: UsersListState['sort'], dir: UsersListState['dir']) => update({ sort, dir, page: 1 }),
      setSearch: (q: string, options?: ListStateUpdate) => update({ q, page: 1 }, options),
      setFilters: (filters: UsersListFilters) => update({ filters, page: 1 }),
      patchFilters: (patch: Partial<UsersListFilters>) => {
        const filters: UsersListFilters = { ...latest.current.filters, ...patch };
        for (const key of Object.keys(filters) as Array<keyof UsersListFilters>) {
          if (filters[key] === undefined) delete filters[key];
        }
        update({ filters, page: 1 });
      },
      clearFilters: () => update({ q: '', filters: {}, page: 1 }),
    }),
    [update],
  );

  return { state, ...actions };
}

export type UsersListController = ReturnType<typeof useUsersListState>;
