import { type BulkRequest, USER_COLUMN_KEYS, type UserColumnKey, usersListQuery } from '@app/contracts';
import type { RouterInputs } from '../api-types';
import { defineResourceList, type FiltersOf, type StateOf } from '../resource-list/define-resource-list';

/** The link to the record: hiding it would leave rows nobody can open. */
export const LOCKED_COLUMNS: ReadonlySet<UserColumnKey> = new Set<UserColumnKey>(['name']);

/** The users list, declared from its contract; its view preferences' keys are part of the product contract (SPEC §10). */
const STORAGE_PREFIX = 'users_table';
export const usersList = defineResourceList(usersListQuery, {
  storagePrefix: STORAGE_PREFIX,
  columns: USER_COLUMN_KEYS,
  locked: LOCKED_COLUMNS,
});

export const DENSITY_STORAGE_KEY = `${STORAGE_PREFIX}_density`;
export const HIDDEN_COLUMNS_STORAGE_KEY = `${STORAGE_PREFIX}_hidden_columns`;

export type UsersListInput = RouterInputs['users']['list'];
export type UsersListFilters = FiltersOf<typeof usersList>;
export type UsersListState = StateOf<typeof usersList>;
/** A bulk action's operation part (the list kit adds the ids or the selection, and dryRun). */
export type UsersBulkOperation = Pick<BulkRequest, 'operation' | 'active' | 'role_id' | 'attribute' | 'value'>;

/** A shared link to the trash opens as the plain list for someone who may not see it. */
export function withoutTrash(state: UsersListState): UsersListState {
  if (!state.filters.trashed) return state;
  const { trashed: _hidden, ...filters } = state.filters;
  return { ...state, filters };
}

/** The trash and nothing else: its empty state is its own. */
export const onlyTrash = (state: UsersListState) =>
  state.filters.trashed === 'only' && state.q === '' && Object.keys(state.filters).length === 1;
