import { expect } from 'vitest';
import { en, waitForRows } from './app';
import { type AppPage, h1 } from './app-page';
import { HISTORY_RENAMED } from './audit';

/** Signing in, the users and their forms, a role, and the audit log with a user's History. */
export const USER_PAGES: AppPage[] = [
  {
    name: 'login',
    title: 'the login page',
    who: 'anonymous',
    path: () => '/login',
    ready: (p) => h1(p, en.auth.title),
  },
  {
    name: 'users-list',
    title: 'the users list',
    who: 'admin',
    path: () => '/users',
    ready: async (p) => {
      await h1(p, en.usersList.title);
      await waitForRows(p);
    },
  },
  {
    name: 'user-show',
    title: 'a user’s page',
    who: 'admin',
    path: ({ user }) => `/users/${user.id}`,
    ready: (p, { user }) => h1(p, user.name),
  },
  {
    name: 'user-edit',
    title: 'the edit form',
    who: 'admin',
    path: ({ user }) => `/users/${user.id}/edit`,
    ready: async (p, { user }) => {
      await h1(p, en.userForm.editTitle);
      const name = p.getByLabel(en.userForm.name, { exact: true });
      await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe(user.name);
    },
  },
  {
    name: 'user-new',
    title: 'the new-user form',
    who: 'admin',
    path: () => '/users/new',
    ready: async (p) => {
      await h1(p, en.userForm.newTitle);
      // The roles' checkboxes: the direct-permission matrix below has a row named Roles too.
      await p.getByRole('group', { name: en.userForm.roles, exact: true }).first().waitFor();
    },
  },
  {
    name: 'role',
    title: 'a role’s page',
    who: 'admin',
    path: ({ role }) => `/roles/${role.id}`,
    ready: (p, { role }) => h1(p, role.name),
  },
  {
    name: 'audit-list',
    title: 'the audit log',
    who: 'admin',
    path: () => '/audit',
    ready: async (p) => {
      await h1(p, en.audit.title);
      await p
        .getByRole('table', { name: en.audit.table.label })
        .or(p.getByRole('list', { name: en.audit.table.label }))
        .locator(':is(tbody tr, li) a[href^="/audit/"]')
        .first()
        .waitFor();
    },
  },
  {
    name: 'audit-event',
    title: 'an audit event',
    who: 'admin',
    path: ({ audit }) => `/audit/${audit.editEventId}`,
    ready: (p) => h1(p, en.audit.actions['user.update']),
  },
  {
    name: 'user-history',
    title: 'a user’s page with its History',
    who: 'admin',
    path: ({ audit }) => `/users/${audit.userId}`,
    ready: async (p) => {
      await h1(p, HISTORY_RENAMED.name);
      await p.getByRole('heading', { name: en.audit.history.title, exact: true }).waitFor();
      await p.getByText(HISTORY_RENAMED.email, { exact: true }).first().waitFor();
    },
  },
];
