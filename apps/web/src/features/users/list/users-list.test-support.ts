import type { BulkReport, UserListRow, UsersListResult } from '@app/contracts';
import { configure, fireEvent, screen } from '@testing-library/react';
import { type capabilities, mockTrpc, ok, sessionOf, type TrpcReply } from '../../../test/trpc-mock';
import { actionsFor } from '../../../test/user-fixtures';
import type { UsersListInput } from '../../../lib/users-query/users-list-state';

// jsdom lacks what Radix's popper and menus measure with; the tests only need them to exist.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
if (!Element.prototype.hasPointerCapture) {
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => {};
}
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

export type Granted = Parameters<typeof capabilities>[0];

// A whole page renders per test; on a loaded machine the first answer can take over a second.
configure({ asyncUtilTimeout: 4000 });

export const ROLES = [
  { id: 1, name: 'admin' },
  { id: 2, name: 'manager' },
  { id: 3, name: 'viewer' },
];

export function userRow(id: number, overrides: Partial<UserListRow> = {}, granted: Granted = 'all'): UserListRow {
  const row = {
    id,
    name: `User ${id}`,
    email: `user${id}@example.com`,
    roles_count: 1,
    roles: ['viewer'],
    is_active: id % 5 !== 0,
    created_at: '2024-05-01T09:30:00.000Z',
    deleted_at: null,
    ...overrides,
  };
  return { ...row, actions: overrides.actions ?? actionsFor(row, granted) };
}

/** `count` users, newest first (the default order), answered a page at a time like the server. */
export function usersDirectory(count: number, granted: Granted = 'all') {
  const users = Array.from({ length: count }, (_, index) => userRow(count - index, {}, granted));
  return (input: unknown): TrpcReply => {
    const query = input as UsersListInput;
    const page = Number(query.page ?? 1);
    const perPage = Number(query.perPage ?? 10);
    const result: UsersListResult = {
      rows: users.slice((page - 1) * perPage, page * perPage),
      meta: { page, perPage, total: count, totalExact: true, pageCount: Math.ceil(count / perPage) },
      stats: { total: count, active: count - 8, inactive: 8, trashed: 3 },
      availableRoles: ROLES,
      filters: {},
    };
    return ok(result);
  };
}

/** A one-page `users.list` answer holding exactly `rows`. */
export function listOf(rows: UserListRow[]): UsersListResult {
  return {
    rows,
    meta: { page: 1, perPage: 10, total: rows.length, totalExact: true, pageCount: 1 },
    stats: { total: rows.length, active: rows.length, inactive: 0, trashed: 0 },
    availableRoles: ROLES,
    filters: {},
  };
}

/** The API a signed-in user with `granted` sees, with `users` users; override any procedure. */
export function mockUsersApi(granted: Granted, users = 42, overrides: Parameters<typeof mockTrpc>[0] = {}) {
  return mockTrpc({
    'auth.me': ok(sessionOf(granted)),
    'users.list': usersDirectory(users, granted),
    ...overrides,
  });
}

export function dryRunReport(overrides: Partial<BulkReport> = {}): BulkReport {
  return { operation: 'setActive', dryRun: true, requested: 0, affected: [], skipped: [], ...overrides };
}

/** Radix menus open from the keyboard in jsdom (there are no real pointer events). */
export function openMenu(name: string | RegExp) {
  fireEvent.keyDown(screen.getByRole('button', { name }), { key: 'Enter' });
}
