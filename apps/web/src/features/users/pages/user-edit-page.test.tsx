import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PERMISSIONS } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { bodyRowsOf } from '../../../test/table-rows';
import { fail, mockTrpc, ok, sessionOf } from '../../../test/trpc-mock';
import { ROLE_OPTIONS, userEdit, userShow } from '../../../test/user-fixtures';

const f = en.userForm;
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: f.save }));

describe('edit user page', () => {
  it('saves, says so and goes to the user’s page', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'users.edit': ok(userEdit()),
      'users.update': (body) => ok({ item: { ...userShow().item, name: (body as { name: string }).name } }),
      'users.show': 'pending',
    });
    const { router } = renderApp('/users/42/edit');

    await screen.findByDisplayValue('Ann Lee');
    type(f.name, '  Ann Lee-Smith ');
    save();

    await waitFor(() => expect(router.state.location.pathname).toBe('/users/42'));
    expect(api.callsTo('users.update')).toEqual([
      {
        id: 42,
        name: 'Ann Lee-Smith',
        email: 'ann@example.com',
        roles_ids: [2],
        permissions: [],
        is_active: true,
        version: 'v1',
      },
    ]);
    expect(await screen.findByText(f.saved)).toBeTruthy();
  });

  it('checks the input with the contracts’ schema before sending', async () => {
    const api = mockTrpc({ 'auth.me': ok(sessionOf('all')), 'users.edit': ok(userEdit()) });
    renderApp('/users/42/edit');

    await screen.findByDisplayValue('Ann Lee');
    type(f.name, '');
    type(f.newPassword, 'short');
    save();

    expect(await screen.findByText('Enter a name.')).toBeTruthy();
    expect(screen.getByText('The password must be at least 8 characters long.')).toBeTruthy();
    expect(screen.getByText('The password confirmation does not match the password.')).toBeTruthy();
    expect(api.callsTo('users.update')).toHaveLength(0);
  });

  it('puts the server’s field errors on the fields', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'users.edit': ok(userEdit()),
      'users.update': fail({
        message: 'This e-mail address is already used by another account.',
        code: 'VALIDATION_FAILED',
        httpStatus: 422,
        errors: {
          email: ['This e-mail address is already used by another account.'],
          'roles_ids.1': ['There is no role with id 9.'],
        },
      }),
    });
    renderApp('/users/42/edit');

    await screen.findByDisplayValue('Ann Lee');
    save();

    const email = input(f.email);
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    const described = email.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(described.split(' ').at(-1) ?? '')?.textContent).toBe(
      'This e-mail address is already used by another account.',
    );
    // The first group so named: the roles' boxes (the direct-permission matrix has a "Roles" row too).
    const roles = screen.getAllByRole('group', { name: f.roles })[0] as HTMLElement;
    expect(within(roles).getByText('There is no role with id 9.')).toBeTruthy();
    expect(document.activeElement).toBe(email);
  });

  it('after a conflict, shows their version beside my edits, field by field, and reloads keeping my edits', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'users.edit': ok(userEdit()),
      'users.update': fail({
        message: 'Someone else changed this user after you opened it. Reload to see their changes, then edit again.',
        code: 'VERSION_CONFLICT',
        httpStatus: 409,
      }),
    });
    renderApp('/users/42/edit');

    await screen.findByDisplayValue('Ann Lee');
    type(f.name, 'Ann B.');
    // Meanwhile someone renamed her and changed her e-mail; her roles stayed as they were.
    api.set('users.edit', ok(userEdit({ name: 'Ann Lee-Jones', email: 'ann.jones@example.com', version: 'v2' })));
    save();

    const table = await screen.findByRole('table', { name: f.conflict.caption });
    const banner = screen.getByRole('alert');
    expect(within(banner).getByText(f.conflict.title)).toBeTruthy();
    expect(bodyRowsOf(table)).toEqual([
      [f.name, 'Ann Lee-Jones', 'Ann B.'],
      [f.email, 'ann.jones@example.com', f.conflict.notEdited],
    ]);
    // Nothing changed yet: the form still holds my edit until I choose.
    expect(input(f.name).value).toBe('Ann B.');

    fireEvent.click(within(banner).getByRole('button', { name: f.conflict.keep }));
    expect(await screen.findByText(f.conflict.keptTitle)).toBeTruthy();
    expect(input(f.name).value).toBe('Ann B.');
    expect(input(f.email).value).toBe('ann.jones@example.com');

    api.set('users.update', (body) => ok({ item: { ...userShow().item, name: (body as { name: string }).name } }));
    api.set('users.show', 'pending');
    save();
    await waitFor(() => expect(api.callsTo('users.update')).toHaveLength(2));
    expect(api.callsTo('users.update')[1]).toMatchObject({
      name: 'Ann B.',
      email: 'ann.jones@example.com',
      version: 'v2',
    });
  });

  it('after a conflict, discarding my edits takes their version as it is', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'users.edit': ok(userEdit()),
      'users.update': fail({ message: 'Changed by someone else.', code: 'VERSION_CONFLICT', httpStatus: 409 }),
    });
    renderApp('/users/42/edit');

    await screen.findByDisplayValue('Ann Lee');
    type(f.name, 'Ann B.');
    api.set('users.edit', ok(userEdit({ email: 'ann.jones@example.com', version: 'v2' })));
    save();

    const banner = await screen.findByRole('alert');
    fireEvent.click(await within(banner).findByRole('button', { name: f.conflict.discard }));
    expect(await screen.findByText(f.conflict.discardedTitle)).toBeTruthy();
    expect(input(f.name).value).toBe('Ann Lee');
    expect(input(f.email).value).toBe('ann.jones@example.com');
  });

  it('disables roles the caller may not grant and says why', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.update', 'roles.view'])),
      'users.edit': ok(
        userEdit(
          { roles_ids: [1], roles: [{ id: 1, name: 'admin' }] },
          {
            roles: ROLE_OPTIONS.map((role) => ({ ...role, assignable: role.name === 'viewer' })),
            can: { setActive: false },
          },
        ),
      ),
    });
    renderApp('/users/42/edit');

    const admin = await screen.findByRole('checkbox', { name: 'admin' });
    expect(admin.getAttribute('aria-checked')).toBe('true');
    expect((admin as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'viewer' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getAllByText(f.roleLocked)).toHaveLength(2);
    // The server's can.setActive is false: no switch.
    expect(screen.queryByRole('switch', { name: f.active })).toBeNull();
  });

  it('edits the direct permissions: grants one the caller holds, shows why the others are locked', async () => {
    const reason = 'You can grant or take away only permissions you hold yourself; you do not hold users.delete.';
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.update', 'users.export'])),
      'users.edit': ok(
        userEdit(
          { permissions: ['users.view'] },
          {
            permissions: PERMISSIONS.map((name) =>
              name === 'users.delete' ? { name, grantable: false, reason } : { name, grantable: true },
            ),
          },
        ),
      ),
      'users.update': ok({ item: userShow().item }),
      'users.show': ok(userShow()),
    });
    const { router } = renderApp('/users/42/edit');

    const matrix = await screen.findByRole('group', { name: f.directTitle });
    expect((within(matrix).getByRole('checkbox', { name: 'View users' }) as HTMLInputElement).checked).toBe(true);
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
    save();

    await waitFor(() => expect(router.state.location.pathname).toBe('/users/42'));
    expect(api.callsTo('users.update')).toEqual([
      expect.objectContaining({ permissions: ['users.view', 'users.export'] }),
    ]);
  });

  // The server decides (permission, record, rules) and ships can.setActive; the form only shows it.
  it.each([
    { flag: false, setActive: true, shown: false },
    { flag: true, setActive: true, shown: true },
    { flag: true, setActive: false, shown: true },
  ])(
    'shows the status switch by can.setActive alone (flag $flag, caller holds users.setActive: $setActive)',
    async ({ flag, setActive, shown }) => {
      const granted = ['users.view', 'users.update', ...(setActive ? (['users.setActive'] as const) : [])] as const;
      const api = mockTrpc({
        'auth.me': ok(sessionOf([...granted])),
        'users.edit': ok(userEdit({}, { can: { setActive: flag } })),
        'users.update': 'pending',
      });
      renderApp('/users/42/edit');

      await screen.findByDisplayValue('Ann Lee');
      expect(screen.queryByRole('switch', { name: f.active }) !== null).toBe(shown);
      // What is not shown is not sent either.
      save();
      await waitFor(() => expect(api.callsTo('users.update')).toHaveLength(1));
      expect('is_active' in (api.callsTo('users.update')[0] as object)).toBe(shown);
    },
  );

  it('shows a rule the server refused as a form error', async () => {
    const message = 'This would leave no active administrator. Make another user an administrator first.';
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'users.edit': ok(userEdit()),
      'users.update': fail({ message, code: 'LAST_ADMIN', httpStatus: 422 }),
    });
    renderApp('/users/42/edit');

    fireEvent.click(await screen.findByRole('switch', { name: f.active }));
    save();

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(message)).toBeTruthy();
  });

  it('offers no form for a user who outranks the caller, and says why', async () => {
    const why =
      'Grace Admin holds permissions you do not have (users.delete): only someone who holds all of them can change this account.';
    const outranked = { allowed: false, code: 'OUTRANKED' as const, message: why };
    const data = userEdit({ name: 'Grace Admin' }, { can: { update: false, setActive: false, delete: false } });
    data.item.actions = { ...data.item.actions, update: outranked, setActive: outranked, delete: outranked };
    mockTrpc({ 'auth.me': ok(sessionOf(['users.view', 'users.update', 'users.setActive'])), 'users.edit': ok(data) });
    renderApp('/users/42/edit');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(f.cannotEditTitle)).toBeTruthy();
    expect(within(alert).getByText(why)).toBeTruthy();
    expect(within(alert).getByRole('link', { name: f.backToProfile }).getAttribute('href')).toBe('/users/42');
    expect(screen.queryByRole('textbox', { name: f.name })).toBeNull();
    expect(screen.queryByRole('button', { name: f.save })).toBeNull();
  });
});

describe('leaving the edit page', () => {
  it('asks before throwing unsaved edits away', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf('all')), 'users.edit': ok(userEdit()), 'users.show': 'pending' });
    const { router } = renderApp('/users/42/edit');

    await screen.findByDisplayValue('Ann Lee');
    type(f.name, 'Ann B.');
    fireEvent.click(screen.getByRole('button', { name: f.cancel }));

    const dialog = await screen.findByRole('dialog', { name: f.leaveTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: f.leaveCancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/users/42/edit');
    expect(input(f.name).value).toBe('Ann B.');

    fireEvent.click(screen.getByRole('button', { name: f.cancel }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: f.leaveConfirm }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/42'));
  });
});
