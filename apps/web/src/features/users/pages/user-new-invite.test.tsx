import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../../test/trpc-mock';
import { userShow } from '../../../test/user-fixtures';

const f = en.userForm;
const t = en.userAccess;
const EXPIRES = '2026-12-04T10:00:00.000Z';
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

function newUserApi(created: unknown) {
  return mockTrpc({
    'auth.me': ok(sessionOf(['users.view', 'users.create', 'users.update'])),
    'users.new': ok({ options: { roles: [] }, can: { setActive: false } }),
    'users.create': ok(created),
    'users.show': 'pending',
  });
}

async function fillInvited() {
  await screen.findByLabelText(f.name);
  type(f.name, 'Ben Ng');
  type(f.email, 'ben@example.com');
  fireEvent.click(screen.getByRole('switch', { name: new RegExp(t.inviteInstead) }));
}

describe('new user page: invite instead of a password', { timeout: 20_000 }, () => {
  it('hides the password fields and creates the user with invite: true and no password', async () => {
    const api = newUserApi({
      item: userShow({ id: 77, name: 'Ben Ng' }).item,
      invitation: { user_id: 77, expires_at: EXPIRES, sent: true },
    });
    const { router } = renderApp('/users/new');
    expect(await screen.findByLabelText(f.password)).toBeTruthy();

    await fillInvited();
    expect(screen.queryByLabelText(f.password)).toBeNull();
    expect(screen.queryByLabelText(f.passwordConfirmation)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/users/77'));
    expect(api.callsTo('users.create')).toEqual([
      { name: 'Ben Ng', email: 'ben@example.com', invite: true, roles_ids: [] },
    ]);
    expect(await screen.findByText(t.createdInvited('Ben Ng'), {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('drops a password typed before choosing to invite', async () => {
    const api = newUserApi({
      item: userShow({ id: 77, name: 'Ben Ng' }).item,
      invitation: { user_id: 77, expires_at: EXPIRES, sent: true },
    });
    renderApp('/users/new');
    await screen.findByLabelText(f.password);
    type(f.password, 'short');

    await fillInvited();
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(api.callsTo('users.create')).toHaveLength(1));
    expect(api.callsTo('users.create')[0]).not.toHaveProperty('password');
  });

  it('shows the invitation link to copy when the server has no mail, then opens the user', async () => {
    const url = 'https://admin.example.com/invite/tok_456';
    newUserApi({
      item: userShow({ id: 77, name: 'Ben Ng' }).item,
      invitation: { user_id: 77, expires_at: EXPIRES, sent: false },
      url,
    });
    const { router } = renderApp('/users/new');
    await fillInvited();
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    const dialog = await screen.findByRole('dialog', { name: t.link.inviteTitle('Ben Ng') });
    expect((within(dialog).getByLabelText(t.link.label) as HTMLInputElement).value).toBe(url);
    expect(router.state.location.pathname).toBe('/users/new');

    fireEvent.click(within(dialog).getByRole('button', { name: t.link.done }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/77'));
  });
});
