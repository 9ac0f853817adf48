import { type Direction, readQueryString, stringifyQuery, usersListQuery, type UsersSort } from '@app/contracts';
import type { RouterInputs } from '../../../lib/api-types';

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
export interface UsersListState {
  q: string;
  page: number;
  perPage: number;
  sort: UsersSort | null;
  dir: Direction;
  filters: UsersListFilters;
}

export const PER_PAGE_OPTIONS = [10, 25, 50, 100] as const;

export const DEFAULT_LIST_STATE: UsersListState = {
  q: '',
  page: 1,
  perPage: usersListQuery.perPage.default,
  sort: null,
  dir: 'asc',
  filters: {},
};

type Parsed = ReturnType<typeof usersListQuery.input.parse>;

function toStateFilters(filters: Parsed['filters']): UsersListFilters {
  const out: UsersListFilters = {};
  if (filters.name) out.name = filters.name.value;
  if (filters.email) out.email = filters.email.value;
  if (filters.role_id) out.role_id = filters.role_id.values;
  if (filters.is_active) out.is_active = filters.is_active.value ? 'active' : 'inactive';
  const created = filters.created_between;
  if (created && (created.from || created.to)) {
    // Bounds come back as instants; the date inputs want the UTC day they fall on.
    out.created_between = {
      ...(created.from ? { from: created.from.slice(0, 10) } : {}),
      ...(created.to ? { to: created.to.slice(0, 10) } : {}),
    };
  }
  if (filters.trashed && filters.trashed.value !== 'without') out.trashed = filters.trashed.value;
  return out;
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

/**
 * The list state a URL's query string stands for, validated by the same contract as the server.
 * A hand-edited or stale link never breaks the page: the invalid parts are dropped (the rest is
 * kept), and keys that cannot be read are skipped.
 */
export function parseListState(search: string): UsersListState {
  let raw = readQueryString(search);
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const result = usersListQuery.input.safeParse(raw);
    if (result.success) {
      const { q, page, perPage, sort, dir, filters } = result.data;
      return { q: q ?? '', page, perPage, sort, dir: sort ? dir : 'asc', filters: toStateFilters(filters) };
    }
    for (const issue of result.error.issues) {
      // An unknown filter is reported on `filters` itself, naming the keys: drop just those.
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
      for (const key of keys) raw = withoutPath(raw, key === undefined ? issue.path : [...issue.path, key]);
    }
  }
  return DEFAULT_LIST_STATE;
}

/** The query string for a state; defaults are left out so plain links stay plain. */
export function toSearch(state: UsersListState): string {
  return stringifyQuery({
    q: state.q || undefined,
    page: state.page > 1 ? state.page : undefined,
    perPage: state.perPage !== DEFAULT_LIST_STATE.perPage ? state.perPage : undefined,
    sort: state.sort ?? undefined,
    dir: state.sort ? state.dir : undefined,
    filters: state.filters,
  });
}

/** What `users.list` (and, with extras, `users.selected` and the export) is asked for. */
export function toListInput(state: UsersListState): UsersListInput {
  return {
    ...(state.q ? { q: state.q } : {}),
    page: state.page,
    perPage: state.perPage,
    ...(state.sort ? { sort: state.sort, dir: state.dir } : {}),
    filters: state.filters,
  };
}

/** Query and filters without paging or order: two states with the same scope match the same rows. */
export function scopeKey(state: UsersListState): string {
  return stringifyQuery({ q: state.q || undefined, filters: state.filters });
}

export function isFiltered(state: UsersListState): boolean {
  return state.q !== '' || Object.keys(state.filters).length > 0;
}

/** Filter groups in force (the search box is not counted: it shows its own text). */
export function filterCount(filters: UsersListFilters): number {
  return Object.keys(filters).length;
}
