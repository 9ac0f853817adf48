import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { NO_HISTORY, NO_SECURITY_ANSWERS } from '../../../test/integration-fixtures';
import { renderApp } from '../../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../../test/trpc-mock';
import { userShow } from '../../../test/user-fixtures';

const a = en.userActions;

describe('user page', () => {
  it('shows the user, their roles as links and their permissions', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_HISTORY,
      'users.show': ok(userShow()),
      ...NO_SECURITY_ANSWERS,
    });
    renderApp('/users/42');

    expect(await screen.findByRole('heading', { level: 1, name: 'Ann Lee' })).toBeTruthy();
    expect(screen.getAllByText('ann@example.com').length).toBeGreaterThan(0);
    expect(screen.getAllByText(en.userPage.active).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'manager' }).getAttribute('href')).toBe('/roles/2');
    expect(screen.getByText(en.permissions.names['users.export']!.label)).toBeTruthy();
    expect(api.callsTo('users.show')[0]).toEqual({
      id: 42,
      with: ['roles'],
      append: ['permission_names', 'is_admin'],
      withTrashed: true,
    });
  });

  it('says where each permission comes from: a role, a direct grant, or both', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_HISTORY,
      ...NO_SECURITY_ANSWERS,
      'users.show': ok(userShow()),
      'users.access': ok({
        item: {
          id: 42,
          permissions: [
            {
              name: 'users.view',
              sources: [
                { kind: 'role', id: 2, name: 'manager' },
                { kind: 'role', id: 3, name: 'viewer' },
              ],
            },
            { name: 'users.export', sources: [{ kind: 'role', id: 2, name: 'manager' }, { kind: 'direct' }] },
          ],
        },
      }),
    });
    renderApp('/users/42');

    const access = await screen.findByRole('region', { name: en.userPage.permissionsTitle });
    expect(await within(access).findByText(en.userPage.accessSources(['manager', 'viewer'], false))).toBeTruthy();
    expect(within(access).getByText(en.userPage.accessSources(['manager'], true))).toBeTruthy();
    expect(en.userPage.accessSources(['manager'], true)).toBe('Through manager · granted directly');
    expect(en.userPage.accessSources([], true)).toBe('Granted directly');
    expect(api.callsTo('users.access')[0]).toEqual({ id: 42 });
  });

  it('hides every action the caller may not use', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view'])),
      'users.show': ok(userShow({ is_active: false }, ['users.view'])),
    });
    renderApp('/users/42');

    await screen.findByRole('heading', { level: 1, name: 'Ann Lee' });
    expect(screen.queryByRole('link', { name: a.edit })).toBeNull();
    expect(screen.queryByRole('button', { name: a.activate })).toBeNull();
    expect(screen.queryByRole('button', { name: a.delete })).toBeNull();
    expect(screen.queryByText(a.dangerZone)).toBeNull();
    // Without roles.view a role is named, not linked.
    expect(screen.getByText('manager')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'manager' })).toBeNull();
  });

  it('shows each action its capability allows', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.update', 'users.setActive'])),
      ...NO_SECURITY_ANSWERS,
      'users.show': ok(userShow({}, ['users.view', 'users.update', 'users.setActive'])),
    });
    renderApp('/users/42');

    expect((await screen.findByRole('link', { name: a.edit })).getAttribute('href')).toBe('/users/42/edit');
    expect(screen.getByRole('button', { name: a.deactivate })).toBeTruthy();
    expect(screen.queryByRole('button', { name: a.delete })).toBeNull();
  });

  it('offers no control on a user who outranks the caller, and says why', async () => {
    const granted = ['users.view', 'users.update', 'users.setActive'] as const;
    const why =
      'Grace Admin holds permissions you do not have (users.create, users.delete): only someone who holds all of them can change this account.';
    const outranked = { allowed: false, code: 'OUTRANKED' as const, message: why };
    const base = userShow({ name: 'Grace Admin', is_admin: true }, granted).item;
    mockTrpc({
      'auth.me': ok(sessionOf(granted)),
      ...NO_SECURITY_ANSWERS,
      'users.show': ok(
        userShow({ ...base, actions: { ...base.actions, update: outranked, setActive: outranked } }, granted),
      ),
    });
    renderApp('/users/42');

    await screen.findByRole('heading', { level: 1, name: 'Grace Admin' });
    expect(screen.queryByRole('link', { name: a.edit })).toBeNull();
    expect(screen.queryByRole('button', { name: a.deactivate })).toBeNull();
    expect(screen.queryByText(a.dangerZone)).toBeNull();
    expect(screen.getByText(en.userPage.outrankedTitle)).toBeTruthy();
    expect(screen.getByText(why)).toBeTruthy();
  });

  it('explains, in the server’s words, why an active user cannot be deleted, and does nothing when pressed', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_SECURITY_ANSWERS,
      ...NO_HISTORY,
      'users.show': ok(userShow({ is_active: true })),
    });
    renderApp('/users/42');

    const button = await screen.findByRole('button', { name: a.delete });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    const reason = 'Ann Lee is active: deactivate the account before deleting it.';
    expect(button.getAttribute('title')).toBe(reason);
    expect(document.getElementById('delete-user-help')?.textContent).toBe(reason);
    fireEvent.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers Delete on an active user when the server allows it (deletion of active users switched on)', async () => {
    const user = userShow({ is_active: true }).item;
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_SECURITY_ANSWERS,
      ...NO_HISTORY,
      'users.show': ok(userShow({ ...user, actions: { ...user.actions, delete: { allowed: true } } })),
    });
    renderApp('/users/42');

    const button = await screen.findByRole('button', { name: a.delete });
    expect(button.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(button);
    expect(await screen.findByRole('dialog', { name: a.confirmDeleteTitle('Ann Lee') })).toBeTruthy();
  });

  it('deletes after confirmation, says so with an Undo, and returns to the list', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_SECURITY_ANSWERS,
      ...NO_HISTORY,
      'users.show': ok(userShow({ is_active: false })),
      'users.delete': ok(null),
      'users.list': 'pending',
      'users.restore': ok(userShow({ is_active: false })),
    });
    const { router } = renderApp('/users/42');

    fireEvent.click(await screen.findByRole('button', { name: a.delete }));
    const dialog = await screen.findByRole('dialog', { name: a.confirmDeleteTitle('Ann Lee') });
    fireEvent.click(within(dialog).getByRole('button', { name: a.delete }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(api.callsTo('users.delete')).toEqual([{ id: 42 }]);
    expect(await screen.findByText(a.deletedToast)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: a.undo }));
    await waitFor(() => expect(api.callsTo('users.restore')).toEqual([{ id: 42 }]));
    expect(await screen.findByText(a.restored('Ann Lee'))).toBeTruthy();
  });

  it('shows the server’s refusal as a notification', async () => {
    const message = 'This would leave no active administrator. Make another user an administrator first.';
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_SECURITY_ANSWERS,
      ...NO_HISTORY,
      'users.show': ok(userShow()),
      'users.setActive': fail({ message, code: 'LAST_ADMIN', httpStatus: 422 }),
    });
    renderApp('/users/42');

    fireEvent.click(await screen.findByRole('button', { name: a.deactivate }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: a.deactivate }));

    expect(await screen.findByText(message)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers restore and permanent delete for a deleted user', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_SECURITY_ANSWERS,
      ...NO_HISTORY,
      'users.show': ok(userShow({ is_active: false, deleted_at: '2024-06-01T08:00:00.000Z' })),
    });
    renderApp('/users/42');

    expect(await screen.findByRole('button', { name: a.restore })).toBeTruthy();
    expect(screen.getByRole('button', { name: a.forceDelete })).toBeTruthy();
    expect(screen.getByText(en.userPage.deletedBannerTitle)).toBeTruthy();
    expect(screen.queryByRole('link', { name: a.edit })).toBeNull();
    expect(screen.queryByRole('button', { name: a.activate })).toBeNull();
  });

  it('says so when the user does not exist', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_SECURITY_ANSWERS,
      ...NO_HISTORY,
      'users.show': fail({ message: 'The user was not found.', code: 'NOT_FOUND', httpStatus: 404 }),
    });
    renderApp('/users/999');

    expect(await screen.findByText(en.userPage.notFoundTitle)).toBeTruthy();
  });
});
