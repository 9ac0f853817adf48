import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PERMISSIONS } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../../test/trpc-mock';
import { userShow } from '../../../test/user-fixtures';

const f = en.userForm;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

/** GET /users/new as the server decides it for this caller. */
const NEW_FORM = {
  options: {
    roles: [
      {
        id: 1,
        name: 'admin',
        assignable: false,
        missing: ['users.delete'],
        reason: 'You cannot grant or remove the role admin: it carries permissions you do not hold (users.delete).',
      },
      { id: 2, name: 'manager', assignable: true },
    ],
  },
  can: { setActive: true },
};

describe('new user page', () => {
  it('creates the user and opens their page', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.create', 'users.update', 'users.setActive', 'roles.view'])),
      'users.new': ok(NEW_FORM),
      'users.create': ok({ item: userShow({ id: 77, name: 'Ben Ng' }).item }),
      'users.show': 'pending',
    });
    const { router } = renderApp('/users/new');

    // The server marks the admin role as not assignable (it carries users.delete, which this account lacks).
    const admin = await screen.findByRole('checkbox', { name: 'admin' });
    expect((admin as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'manager' }));
    type(f.name, 'Ben Ng');
    type(f.email, 'ben@example.com');
    type(f.password, 'correct-horse');
    type(f.passwordConfirmation, 'correct-horse');
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/users/77'));
    expect(api.callsTo('users.create')).toEqual([
      {
        name: 'Ben Ng',
        email: 'ben@example.com',
        password: 'correct-horse',
        password_confirmation: 'correct-horse',
        roles_ids: [2],
        is_active: true,
      },
    ]);
    expect(await screen.findByText(f.created('Ben Ng'))).toBeTruthy();
  });

  it('grants direct permissions on the matrix GET /users/new offers, the locked ones with the reason', async () => {
    const reason = 'You can grant or take away only permissions you hold yourself; you do not hold users.delete.';
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.create', 'users.export'])),
      'users.new': ok({
        ...NEW_FORM,
        options: {
          ...NEW_FORM.options,
          permissions: PERMISSIONS.map((name) =>
            name === 'users.delete' ? { name, grantable: false, reason } : { name, grantable: true },
          ),
        },
      }),
      'users.create': ok({ item: userShow({ id: 78, name: 'Cy Lo' }).item }),
      'users.show': 'pending',
    });
    const { router } = renderApp('/users/new');

    const matrix = await screen.findByRole('group', { name: f.directTitle });
    const locked = within(matrix).getByRole('checkbox', { name: 'Delete users' });
    expect(locked.getAttribute('aria-disabled')).toBe('true');
    expect(
      locked
        .getAttribute('aria-describedby')
        ?.split(' ')
        .map((id) => document.getElementById(id)?.textContent),
    ).toContain(reason);
    fireEvent.click(locked);
    fireEvent.click(within(matrix).getByRole('checkbox', { name: 'Export users' }));
    type(f.name, 'Cy Lo');
    type(f.email, 'cy@example.com');
    type(f.password, 'correct-horse');
    type(f.passwordConfirmation, 'correct-horse');
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/users/78'));
    expect(api.callsTo('users.create')).toEqual([expect.objectContaining({ permissions: ['users.export'] })]);
  });

  it('offers exactly the roles GET /users/new marks assignable, whatever the session holds', async () => {
    const api = mockTrpc({
      // The session holds every permission; the server still decides which roles are offered.
      'auth.me': ok(sessionOf([...PERMISSIONS])),
      'users.new': ok({
        options: {
          roles: [
            { id: 1, name: 'admin', assignable: true },
            { id: 2, name: 'manager', assignable: false, missing: ['users.export'], reason: 'no' },
            { id: 3, name: 'viewer', assignable: true },
          ],
        },
        can: { setActive: false },
      }),
    });
    renderApp('/users/new');

    await screen.findByRole('checkbox', { name: 'admin' });
    const enabled = screen
      .getAllByRole('checkbox')
      .filter((box) => !(box as HTMLButtonElement).disabled)
      .map((box) => box.getAttribute('aria-label') ?? box.textContent);
    expect(enabled).toHaveLength(2);
    expect((screen.getByRole('checkbox', { name: 'admin' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'manager' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'viewer' }) as HTMLButtonElement).disabled).toBe(false);
    // The server says no users.setActive: no active switch, whatever the session says.
    expect(screen.queryByRole('switch', { name: new RegExp(f.active) })).toBeNull();
    // One request for the form's data: no list of users, no role per role.
    expect(api.callsTo('users.list')).toEqual([]);
    expect(api.callsTo('roles.show')).toEqual([]);
  });

  it('is refused in plain words without users.create', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['users.view'])) });
    renderApp('/users/new');

    expect(await screen.findByText(en.common.forbiddenTitle)).toBeTruthy();
    expect(screen.queryByRole('button', { name: f.create })).toBeNull();
  });
});
