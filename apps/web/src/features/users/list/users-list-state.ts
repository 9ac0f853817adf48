import { usersListQuery, type UsersSort } from '@app/contracts';
import type { RouterInputs } from '../../../lib/api-types';
import {
  isFiltered as isResourceFiltered,
  type ListState,
  listStateCodec,
  toDayRange,
  toListInput as toResourceListInput,
} from '../../../lib/resource-list/list-state';

export type UsersListInput = RouterInputs['users']['list'];
export type StatusFilter = 'active' | 'inactive';
export type TrashView = 'with' | 'only';

/** The filters as the URL and the API take them, only the ones in force. */
export interface UsersListFilters {
  name?: string;
  email?: string;
  role_id?: number[];
  is_active?: StatusFilter;
  /** `YYYY-MM-DD` bounds, whole UTC days. */
  created_between?: { from?: string; to?: string };
  trashed?: TrashView;
}

/** Everything that decides which rows the table shows; it lives in the URL. */
export type UsersListState = ListState<UsersSort, UsersListFilters>;

/** The page sizes the table offers, from the contract. */
export const PER_PAGE_OPTIONS: readonly number[] = usersListQuery.perPage.choices ?? [usersListQuery.perPage.default];

type Parsed = ReturnType<typeof usersListQuery.input.parse>;

function toStateFilters(filters: Parsed['filters']): UsersListFilters {
  const out: UsersListFilters = {};
  if (filters.name) out.name = filters.name.value;
  if (filters.email) out.email = filters.email.value;
  if (filters.role_id) out.role_id = filters.role_id.values;
  if (filters.is_active) out.is_active = filters.is_active.value ? 'active' : 'inactive';
  const created = toDayRange(filters.created_between);
  if (created) out.created_between = created;
  if (filters.trashed && filters.trashed.value !== 'without') out.trashed = filters.trashed.value;
  return out;
}

export const USERS_LIST_CODEC = listStateCodec<UsersSort, UsersListFilters, typeof usersListQuery>(
  usersListQuery,
  toStateFilters,
);

export const DEFAULT_LIST_STATE: UsersListState = USERS_LIST_CODEC.defaults;

/** The users list state a URL's query string stands for (see `listStateCodec`). */
export const parseListState = (search: string): UsersListState => USERS_LIST_CODEC.parse(search);

/** The query string for a state; defaults are left out so plain links stay plain. */
export const toSearch = (state: UsersListState): string => USERS_LIST_CODEC.toSearch(state);

/** What `users.list` (and, with extras, `users.selected` and the export) is asked for. */
export const toListInput = (state: UsersListState): UsersListInput => toResourceListInput(state);

/** Query and filters without paging or order: two states with the same scope match the same rows. */
export const scopeKey = (state: UsersListState): string => USERS_LIST_CODEC.scopeKey(state);

export const isFiltered = (state: UsersListState): boolean => isResourceFiltered(state);
