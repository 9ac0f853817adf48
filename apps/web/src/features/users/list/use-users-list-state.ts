import { useCallback } from 'react';
import { type ListStateUpdate, useListState } from '../../../lib/resource-list/use-list-state';
import { USERS_LIST_CODEC, type UsersListState } from './users-list-state';

export type { ListStateUpdate };

/** The users list state in the URL; a shared link to the trash opens as the plain list for someone who may not see it. */
export function useUsersListState({ allowTrash }: { allowTrash: boolean }) {
  const sanitize = useCallback(
    (parsed: UsersListState): UsersListState => {
      if (allowTrash || !parsed.filters.trashed) return parsed;
      const { trashed: _hidden, ...filters } = parsed.filters;
      return { ...parsed, filters };
    },
    [allowTrash],
  );
  return useListState(USERS_LIST_CODEC, sanitize);
}

export type UsersListController = ReturnType<typeof useUsersListState>;
