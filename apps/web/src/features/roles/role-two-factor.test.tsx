import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { roleMessages } from '../../i18n/roles-messages';
import { roleEditorMessages } from '../../i18n/role-editor-messages';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { catalogueFor, NO_IMPACT, person, roleItem, roleShow } from './role-test-fixtures';

const f = roleEditorMessages.form;
const p = roleEditorMessages.preview;
const reach = (count: number, user_ids: number[] = []) => ({ count, user_ids });

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

  it('warns, before saving, how many members switching it on would hold, and names the first', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'roles.show': roleShow({ require_two_factor: false }),
      'permissions.list': catalogueFor('all'),
      'roles.preview': ok({
        ...NO_IMPACT,
        two_factor: { held: reach(4200, [3, 5, 8, 9, 11, 12]), released: reach(0) },
        users: [
          person(3, 'Ana'),
          person(5, 'Bo'),
          person(8, 'Cy'),
          person(9, 'Di'),
          person(11, 'Ed'),
          person(12, 'Flo'),
        ],
      }),
    });
    renderApp('/roles/7/edit');
    expect(await screen.findByText(p.unchanged)).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: f.requireTwoFactor }));

    const warning = await screen.findByRole('alert');
    expect(
      within(warning).getByText(
        '4,200 members have no second factor yet: they will be asked to set one up at their next request',
      ),
    ).toBeTruthy();
    expect(warning.textContent).toContain('Ana, Bo, Cy, Di, Ed and 4,195 more');
    expect(warning.textContent).toContain(p.heldBody);
    // The switch's own lines say what changes: no "nothing changes" line above them.
    expect(screen.queryByText(p.unchanged)).toBeNull();
    // Only the switch changed: the permissions are sent as they are, with the switch.
    expect(api.callsTo('roles.preview')).toEqual([
      { id: 7, permissions: ['users.view', 'users.delete'], require_two_factor: true },
    ]);

    // Switched back: nothing changes, nothing more is asked.
    fireEvent.click(screen.getByRole('switch', { name: f.requireTwoFactor }));
    expect(await screen.findByText(p.unchanged)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(api.callsTo('roles.preview')).toHaveLength(1);
  });

  it('says how many switching it off would let go, counted without names for a caller who may not see users', async () => {
    const withheld = 'The users are counted, not named: naming them takes the users.view permission.';
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['roles.view', 'roles.update'])),
      'roles.show': roleShow({ require_two_factor: true, permissions: [] }),
      'permissions.list': catalogueFor(['roles.view', 'roles.update']),
      'roles.preview': ok({
        ...NO_IMPACT,
        two_factor: { held: reach(0), released: reach(3) },
        people: { allowed: false, code: 'FORBIDDEN', message: withheld },
      }),
    });
    renderApp('/roles/7/edit');
    expect(await screen.findByText(p.unchanged)).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: f.requireTwoFactor }));

    expect(await screen.findByText(p.released(3))).toBeTruthy();
    expect(screen.queryByText(p.unchanged)).toBeNull();
    expect(screen.getByText(withheld)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.callsTo('roles.preview')).toEqual([{ id: 7, permissions: [], require_two_factor: false }]);
  });

  it('does not send the switch for a new role: it has nobody to hold', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'permissions.list': catalogueFor('all'),
      'roles.previewNew': ok(NO_IMPACT),
    });
    renderApp('/roles/new');
    expect(await screen.findByText(p.noMembers)).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: f.requireTwoFactor }));
    await new Promise((resolve) => setTimeout(resolve, 600));
    for (const call of api.callsTo('roles.previewNew')) expect(call).toEqual({ permissions: [] });
  });
});
