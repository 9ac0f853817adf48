import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { ok } from '../../../test/trpc-mock';
import { listOf, mockUsersApi, openMenu, userRow } from './users-list.test-support';

const t = en.usersList.rowActions;

/** The open menu of a row, once the list has shown it. */
async function menuOf(name: string) {
  await screen.findByRole('link', { name });
  openMenu(t.open(name));
  return screen.findByRole('menu');
}

// A row's menu is the server's `actions` for that row and nothing else: the caller's capability
// map (`can[...]`) is for page-level controls, and whether an action fits a live or a deleted
// user is the server's to say. Each test sets the two apart.
describe('a row’s menu follows the row’s actions', { timeout: 20_000 }, () => {
  it('offers no Delete the server does not offer on this user, though the caller holds users.delete', async () => {
    const row = userRow(42, { is_active: false });
    const outranked = {
      allowed: false,
      code: 'OUTRANKED' as const,
      message: 'User 42 holds permissions you do not hold.',
    };
    mockUsersApi('all', 1, { 'users.list': ok(listOf([{ ...row, actions: { ...row.actions, delete: outranked } }])) });
    renderApp('/users');

    const menu = await menuOf('User 42');
    expect(within(menu).getByRole('menuitem', { name: t.activate })).toBeTruthy();
    expect(within(menu).queryByRole('menuitem', { name: t.delete })).toBeNull();
  });

  it('shows Delete as unavailable with the server’s reason when a rule refuses it, and does nothing on it', async () => {
    const row = userRow(42, { is_active: false });
    const reason = 'This would leave no active administrator.';
    const api = mockUsersApi('all', 1, {
      'users.list': ok(
        listOf([
          { ...row, actions: { ...row.actions, delete: { allowed: false, code: 'LAST_ADMIN', message: reason } } },
        ]),
      ),
    });
    renderApp('/users');

    const item = within(await menuOf('User 42')).getByRole('menuitem', { name: t.delete });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(item.getAttribute('aria-describedby') ?? '')?.textContent).toBe(reason);
    fireEvent.click(item);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('users.delete')).toEqual([]);
  });

  it('offers the Delete the server allows on this user, though the caller’s capabilities lack users.delete', async () => {
    const row = userRow(42, { is_active: false }, ['users.view']);
    const api = mockUsersApi(['users.view', 'users.setActive'], 1, {
      'users.list': ok(listOf([{ ...row, actions: { ...row.actions, delete: { allowed: true } } }])),
      'users.delete': ok(null),
    });
    renderApp('/users');

    const item = within(await menuOf('User 42')).getByRole('menuitem', { name: t.delete });
    expect(item.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(item);
    const dialog = await screen.findByRole('dialog', { name: t.title.delete('User 42') });
    fireEvent.click(within(dialog).getByRole('button', { name: t.delete }));
    await waitFor(() => expect(api.callsTo('users.delete')).toEqual([{ id: 42 }]));
  });

  it('lists what the server offers whatever the row’s deleted_at says', async () => {
    const allowed = { allowed: true };
    const notDeleted = { allowed: false, code: 'NOT_DELETED' as const, message: 'User 7 is not deleted.' };
    const gone = { allowed: false, code: 'NOT_FOUND' as const, message: 'User 8 is deleted: restore it first.' };
    // A row marked deleted whose actions are a live user's, and the other way round.
    const markedDeleted = userRow(7, { deleted_at: '2024-06-01T00:00:00.000Z', is_active: true });
    const markedLive = userRow(8, { deleted_at: null, is_active: true });
    mockUsersApi('all', 2, {
      'users.list': ok(
        listOf([
          {
            ...markedDeleted,
            actions: {
              update: allowed,
              setActive: allowed,
              delete: allowed,
              restore: notDeleted,
              forceDelete: notDeleted,
            },
          },
          {
            ...markedLive,
            actions: { update: gone, setActive: gone, delete: gone, restore: allowed, forceDelete: allowed },
          },
        ]),
      ),
    });
    renderApp('/users');

    const names = async (row: string) =>
      within(await menuOf(row))
        .getAllByRole('menuitem')
        .map((item) => item.textContent);
    expect(await names('User 7')).toEqual([t.view, t.edit, t.deactivate, t.delete]);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(await names('User 8')).toEqual([t.view, t.restore, t.forceDelete]);
  });
});
