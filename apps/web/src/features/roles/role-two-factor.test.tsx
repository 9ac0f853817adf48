import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { roleMessages } from '../../i18n/roles-messages';
import { roleEditorMessages } from '../../i18n/role-editor-messages';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { catalogueFor, NO_IMPACT, roleItem, roleShow } from './role-test-fixtures';

const f = roleEditorMessages.form;

describe('a role that requires a second factor', { timeout: 20_000 }, () => {
  it('is created with the switch on, explained in plain words', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'permissions.list': catalogueFor('all'),
      'roles.previewNew': ok(NO_IMPACT),
      'roles.create': ok({ item: roleItem({ id: 12, name: 'auditors', require_two_factor: true }) }),
      'roles.show': roleShow({ id: 12, name: 'auditors', require_two_factor: true }),
    });
    const { router } = renderApp('/roles/new');

    fireEvent.change(await screen.findByLabelText(f.name), { target: { value: 'auditors' } });
    expect(screen.getByText(f.requireTwoFactorDescription)).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: f.requireTwoFactor }));
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/roles/12'));
    expect(api.callsTo('roles.create')).toEqual([
      { name: 'auditors', description: null, permissions: [], require_two_factor: true },
    ]);
    expect(await screen.findByText(roleMessages.requiresTwoFactor, {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('shows the requirement on the role’s page only when the role has it', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf('all')), 'roles.show': roleShow({ require_two_factor: false }) });
    renderApp('/roles/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'support' })).toBeTruthy();
    expect(screen.queryByText(roleMessages.requiresTwoFactor)).toBeNull();
  });
});
