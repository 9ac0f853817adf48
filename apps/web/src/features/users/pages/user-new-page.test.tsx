import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../../test/trpc-mock';
import { userShow } from '../../../test/user-fixtures';

const f = en.userForm;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

const LIST = {
  rows: [],
  meta: { page: 1, perPage: 1, total: 0, pageCount: 0 },
  stats: { total: 0, active: 0, inactive: 0 },
  availableRoles: [
    { id: 1, name: 'admin' },
    { id: 2, name: 'manager' },
  ],
  filters: {},
};

const role = (id: number, name: string, permissions: string[]) =>
  ok({
    item: { id, name, guard_name: 'web', permissions: permissions.map((p, i) => ({ id: i + 1, name: p })) },
    meta: { loaded_relations: ['permissions'], loaded_counts: [], loaded_appends: [] },
  });

describe('new user page', () => {
  it('creates the user and opens their page', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.create', 'users.update', 'users.setActive', 'roles.view'])),
      'users.list': ok(LIST),
      'roles.show': (input) =>
        (input as { id: number }).id === 1
          ? role(1, 'admin', ['users.view', 'users.delete'])
          : role(2, 'manager', ['users.view', 'users.update']),
      'users.create': ok({ item: userShow({ id: 77, name: 'Ben Ng' }).item }),
      'users.show': 'pending',
    });
    const { router } = renderApp('/users/new');

    // The admin role carries users.delete, which this account lacks.
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

  it('is refused in plain words without users.create', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['users.view'])) });
    renderApp('/users/new');

    expect(await screen.findByText(en.common.forbiddenTitle)).toBeTruthy();
    expect(screen.queryByRole('button', { name: f.create })).toBeNull();
  });
});
