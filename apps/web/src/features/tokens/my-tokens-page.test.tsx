import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../i18n/en';
import { apiToken } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const t = en.tokens;
const SECRET = 'uat_7_9f8e7d6c5b4a39281706f5e4d3c2b1a0';

function stubClipboard() {
  const writeText = vi.fn(async (_text: string) => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}
afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

async function openCreateDialog() {
  fireEvent.click(await screen.findByRole('button', { name: t.create }));
  return screen.findByRole('dialog', { name: t.form.title });
}

describe('my API tokens', () => {
  it('lists each token with its scopes, expiry and last use', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'audit.view'])),
      'tokens.list': ok({
        items: [
          apiToken({
            id: 1,
            name: 'HR sync',
            scopes: ['users.view', 'audit.view'],
            expires_at: '2027-01-15T12:00:00.000Z',
            last_used_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
            last_used_ip: '198.51.100.4',
          }),
          apiToken({ id: 2, name: 'Old script', expires_at: '2026-01-01T00:00:00.000Z', expired: true }),
        ],
      }),
    });
    renderApp('/account/tokens');

    const list = await screen.findByRole('list', { name: t.list.label });
    const [sync, old] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(sync).getByText(en.permissions.names['users.view']!.label)).toBeTruthy();
    expect(within(sync).getByText(en.permissions.names['audit.view']!.label)).toBeTruthy();
    expect(within(sync).getByText('Jan 15, 2027')).toBeTruthy();
    expect(within(sync).getByText('3 hours ago')).toBeTruthy();
    expect(within(sync).getByText(t.list.fromIp('198.51.100.4'))).toBeTruthy();
    expect(within(old).getByText(t.list.allPermissions)).toBeTruthy();
    expect(within(old).getByText(t.list.expired)).toBeTruthy();
    expect(within(old).getByText(t.list.neverUsed)).toBeTruthy();
  });

  it('explains tokens when there are none, with a curl example of the Bearer header', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf([])), 'tokens.list': ok({ items: [] }) });
    renderApp('/account/tokens');

    expect(await screen.findByText(t.empty.title)).toBeTruthy();
    expect(screen.getByText(/Authorization: Bearer/).textContent).toBe(t.empty.example(window.location.origin));
    expect(screen.getByRole('button', { name: t.create })).toBeTruthy();
  });

  it('offers exactly the scopes the server offers, whatever the session holds, and sends the ones ticked', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'tokens.list': ok({ items: [] }),
      'tokens.options': ok({ scopes: ['users.view', 'audit.view'] }),
      'tokens.create': (input) => ok({ item: apiToken({ name: (input as { name: string }).name }), token: SECRET }),
    });
    renderApp('/account/tokens');

    const dialog = await openCreateDialog();
    fireEvent.change(within(dialog).getByLabelText(t.form.name), { target: { value: 'Reporting' } });
    fireEvent.change(within(dialog).getByLabelText(t.form.expiry), { target: { value: 'never' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: t.form.narrow }));
    const scopes = await within(dialog).findByRole('group', { name: t.form.scopes });
    const offered = within(scopes)
      .getAllByRole('checkbox')
      .map((box) => box.getAttribute('id'));
    expect(offered).toHaveLength(2);
    expect(within(scopes).queryByRole('checkbox', { name: en.permissions.names['users.delete']!.label })).toBeNull();
    fireEvent.click(within(scopes).getByRole('checkbox', { name: en.permissions.names['audit.view']!.label }));
    fireEvent.click(within(dialog).getByRole('button', { name: t.form.submit }));

    await screen.findByRole('dialog', { name: t.secret.title });
    expect(api.callsTo('tokens.create')).toEqual([{ name: 'Reporting', expires_at: null, scopes: ['audit.view'] }]);
  });

  it('shows the secret once, with a copy button and a warning, and forgets it when closed', async () => {
    const writeText = stubClipboard();
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'tokens.list': ok({ items: [] }),
      'tokens.options': ok({ scopes: ['users.view'] }),
      'tokens.create': ok({ item: apiToken({ name: 'Reporting' }), token: SECRET }),
    });
    renderApp('/account/tokens');

    const form = await openCreateDialog();
    fireEvent.change(within(form).getByLabelText(t.form.name), { target: { value: 'Reporting' } });
    fireEvent.click(within(form).getByRole('button', { name: t.form.submit }));

    const dialog = await screen.findByRole('dialog', { name: t.secret.title });
    expect((within(dialog).getByLabelText(t.secret.label) as HTMLInputElement).value).toBe(SECRET);
    expect(within(dialog).getByText(t.secret.warningTitle)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: t.secret.copy }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    expect(await within(dialog).findAllByText(t.secret.copied)).not.toHaveLength(0);
    // 90 days from now unless told otherwise.
    const [sent] = api.callsTo('tokens.create') as [{ expires_at: string }];
    expect(Date.parse(sent.expires_at) - Date.now()).toBeGreaterThan(89 * 86_400_000);

    fireEvent.click(within(dialog).getByRole('button', { name: t.secret.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
    // Opening the dialog again starts a new token: the old secret is gone for good.
    const again = await openCreateDialog();
    expect(within(again).queryByDisplayValue(SECRET)).toBeNull();
  });

  it('says what is wrong before sending, in the contract’s words', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'tokens.list': ok({ items: [] }),
      'tokens.options': ok({ scopes: ['users.view'] }),
    });
    renderApp('/account/tokens');

    const dialog = await openCreateDialog();
    fireEvent.change(within(dialog).getByLabelText(t.form.expiry), { target: { value: 'custom' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: t.form.narrow }));
    fireEvent.click(within(dialog).getByRole('button', { name: t.form.submit }));

    expect(await within(dialog).findByText('Give the token a name.')).toBeTruthy();
    expect(within(dialog).getByText(t.form.customDateRequired)).toBeTruthy();
    expect(
      within(dialog).getByText('Pick at least one permission, or leave the scopes out to act with all of yours.'),
    ).toBeTruthy();
    expect(api.callsTo('tokens.create')).toEqual([]);
  });

  it('puts the server’s field errors next to their field', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'tokens.list': ok({ items: [] }),
      'tokens.options': ok({ scopes: ['users.view'] }),
      'tokens.create': fail({
        message: 'The input is not valid.',
        code: 'VALIDATION_FAILED',
        httpStatus: 422,
        errors: { name: ['You already have a token with this name.'] },
      }),
    });
    renderApp('/account/tokens');

    const dialog = await openCreateDialog();
    fireEvent.change(within(dialog).getByLabelText(t.form.name), { target: { value: 'HR sync' } });
    fireEvent.click(within(dialog).getByRole('button', { name: t.form.submit }));

    const name = within(dialog).getByLabelText(t.form.name);
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText('You already have a token with this name.')).toBeTruthy();
  });

  it('revokes a token only after confirmation', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'tokens.list': ok({ items: [apiToken({ id: 9, name: 'HR sync' })] }),
      'tokens.revoke': ok(null),
    });
    renderApp('/account/tokens');

    fireEvent.click(await screen.findByRole('button', { name: t.list.revokeNamed('HR sync') }));
    let dialog = await screen.findByRole('dialog', { name: t.revoke.title('HR sync') });
    fireEvent.click(within(dialog).getByRole('button', { name: t.revoke.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('tokens.revoke')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: t.list.revokeNamed('HR sync') }));
    dialog = await screen.findByRole('dialog', { name: t.revoke.title('HR sync') });
    fireEvent.click(within(dialog).getByRole('button', { name: t.revoke.confirm }));
    await waitFor(() => expect(api.callsTo('tokens.revoke')).toEqual([{ tokenId: 9 }]));
    expect(await screen.findByText(t.revoke.done('HR sync'))).toBeTruthy();
    // The list is asked again, so the revoked token leaves it.
    await waitFor(() => expect(api.callsTo('tokens.list').length).toBeGreaterThan(1));
  });

  it('is reached from the user menu', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf([])), 'tokens.list': ok({ items: [] }) });
    const { router } = renderApp('/account');

    const menu = await screen.findByRole('button', { name: 'Ada Admin' });
    fireEvent.pointerDown(menu, { button: 0, ctrlKey: false });
    fireEvent.click(await screen.findByRole('menuitem', { name: en.userMenu.tokens }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/tokens'));
  });
});
