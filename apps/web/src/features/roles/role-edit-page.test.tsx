import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { roleEditorMessages } from '../../i18n/role-editor-messages';
import { renderApp } from '../../test/render-app';
import { bodyRowsOf } from '../../test/table-rows';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { catalogueFor, NO_IMPACT, person, roleItem, roleShow } from './role-test-fixtures';

const f = roleEditorMessages.form;
const p = roleEditorMessages.preview;
const label = (name: string) => en.permissions.names[name]?.label ?? name;
const box = (name: string) => screen.getByRole('checkbox', { name: label(name) }) as HTMLInputElement;
const save = () => fireEvent.click(screen.getByRole('button', { name: f.save }));

const IMPACT = {
  gains: [{ permission: 'users.export', count: 1204, user_ids: [3, 5] }],
  losses: [{ permission: 'users.delete', count: 3, user_ids: [3, 8, 9] }],
  outranks: { count: 2, user_ids: [20, 21] },
  two_factor: NO_IMPACT.two_factor,
  users: [person(3, 'Ana'), person(5, 'Bo'), person(8, 'Cy'), person(9, 'Di'), person(20, 'Eve'), person(21, 'Finn')],
  people: { allowed: true },
  refusal: { allowed: true },
};

describe('the edit role page', { timeout: 20_000 }, () => {
  it('previews who gains and loses what, then saves with the version and opens the role', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'roles.show': roleShow(),
      'permissions.list': catalogueFor('all'),
      'roles.preview': ok(IMPACT),
      'roles.update': (input) => ok({ item: roleItem({ id: (input as { id: number }).id }) }),
    });
    const { router } = renderApp('/roles/7/edit');

    // Opened unchanged: nothing to preview, nothing asked.
    expect(await screen.findByText(p.unchanged)).toBeTruthy();
    expect(api.callsTo('roles.preview')).toHaveLength(0);
    fireEvent.click(box('users.export'));
    fireEvent.click(box('users.delete'));

    expect(await screen.findByText('1,204 users gain users.export; 3 users lose users.delete.')).toBeTruthy();
    expect(api.callsTo('roles.preview')).toEqual([{ id: 7, permissions: ['users.view', 'users.export'] }]);
    expect(screen.getByText('Ana, Bo and 1,202 more')).toBeTruthy();
    const warning = screen.getByRole('alert');
    expect(within(warning).getByText(p.outranksTitle(2))).toBeTruthy();
    expect(warning.textContent).toContain('Eve, Finn');

    save();
    await waitFor(() => expect(router.state.location.pathname).toBe('/roles/7'));
    expect(api.callsTo('roles.update')).toEqual([
      {
        id: 7,
        name: 'support',
        description: 'Answers customers',
        permissions: ['users.view', 'users.export'],
        require_two_factor: false,
        version: 'v1',
      },
    ]);
    expect(await screen.findByText(f.saved)).toBeTruthy();
  });

  it('locks the permissions the caller lacks, with the server’s reason, and All skips them', async () => {
    const held = ['users.view', 'users.update', 'roles.view', 'roles.update'] as const;
    mockTrpc({
      'auth.me': ok(sessionOf([...held])),
      'roles.show': roleShow({ permissions: [{ id: 1, name: 'users.view' }] }),
      'permissions.list': catalogueFor([...held]),
      'roles.preview': ok(NO_IMPACT),
    });
    renderApp('/roles/7/edit');

    const reason = 'You can grant or take away only permissions you hold yourself; you do not hold users.delete.';
    const locked = await screen.findByRole('checkbox', {
      name: label('users.delete'),
      description: new RegExp(reason),
    });
    expect(locked.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(locked);
    expect((locked as HTMLInputElement).checked).toBe(false);
    expect(box('users.update').getAttribute('aria-disabled')).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: roleEditorMessages.matrix.allOf('Users') }));
    expect(box('users.update').checked).toBe(true);
    expect(box('users.delete').checked).toBe(false);
    expect(box('users.export').checked).toBe(false);
  });

  it('after a conflict, lists exactly the fields that differ and reloads keeping my edits on their version', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'roles.show': roleShow(),
      'permissions.list': catalogueFor('all'),
      'roles.preview': ok(NO_IMPACT),
      'roles.update': fail({
        message: 'This role was changed by someone else. Reload it and try again.',
        code: 'VERSION_CONFLICT',
        httpStatus: 409,
      }),
    });
    renderApp('/roles/7/edit');

    await screen.findByDisplayValue('support');
    fireEvent.change(screen.getByLabelText(f.name), { target: { value: 'Support desk' } });
    fireEvent.click(box('users.export'));
    // Meanwhile someone rewrote the description and took users.delete away; the name and the switch they left.
    api.set(
      'roles.show',
      roleShow({ version: 'v2', description: 'Their words', permissions: [{ id: 1, name: 'users.view' }] }),
    );
    save();

    const table = await screen.findByRole('table', { name: f.conflict.caption });
    const banner = screen.getByRole('alert');
    expect(within(banner).getByText(f.conflict.title)).toBeTruthy();
    expect(bodyRowsOf(table)).toEqual([
      [f.name, 'support', 'Support desk'],
      [f.description, 'Their words', f.conflict.notEdited],
      [f.permissionsTitle, 'users.view', f.conflict.permissionChanges(['users.delete', 'users.export'], [])],
    ]);
    expect(document.activeElement?.contains(banner)).toBe(true);

    fireEvent.click(within(banner).getByRole('button', { name: f.conflict.keep }));
    expect(await screen.findByText(f.conflict.keptTitle)).toBeTruthy();
    expect((screen.getByLabelText(f.name) as HTMLInputElement).value).toBe('Support desk');
    expect(screen.getByDisplayValue('Their words')).toBeTruthy();
    // My set stands whole (users.delete, which they took away, stays ticked as I left it).
    expect(box('users.export').checked).toBe(true);
    expect(box('users.delete').checked).toBe(true);

    api.set('roles.update', ok({ item: roleItem({ version: 'v3' }) }));
    save();
    await waitFor(() => expect(api.callsTo('roles.update')).toHaveLength(2));
    expect(api.callsTo('roles.update')[1]).toMatchObject({
      version: 'v2',
      name: 'Support desk',
      description: 'Their words',
      permissions: ['users.view', 'users.delete', 'users.export'],
    });
  });

  it('after a conflict, discarding my edits takes their version as it is', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'roles.show': roleShow(),
      'permissions.list': catalogueFor('all'),
      'roles.preview': ok(NO_IMPACT),
      'roles.update': fail({ message: 'Changed by someone else.', code: 'VERSION_CONFLICT', httpStatus: 409 }),
    });
    renderApp('/roles/7/edit');

    await screen.findByDisplayValue('support');
    fireEvent.click(box('users.export'));
    api.set('roles.show', roleShow({ version: 'v2', description: 'Their words' }));
    save();

    const banner = await screen.findByRole('alert');
    fireEvent.click(await within(banner).findByRole('button', { name: f.conflict.discard }));
    expect(await screen.findByText(f.conflict.discardedTitle)).toBeTruthy();
    expect(screen.getByDisplayValue('Their words')).toBeTruthy();
    expect(box('users.export').checked).toBe(false);
  });

  it('says why instead of a form when the role is not the caller’s to edit', async () => {
    const message = 'You cannot change the role support: it grants permissions you do not hold (users.delete).';
    mockTrpc({
      'auth.me': ok(sessionOf(['roles.view', 'roles.update'])),
      'roles.show': roleShow({
        actions: { update: { allowed: false, code: 'OUTRANKED', message }, delete: { allowed: false } },
      }),
      'permissions.list': catalogueFor(['roles.view', 'roles.update']),
    });
    renderApp('/roles/7/edit');

    expect(await screen.findByText(f.cannotEditTitle)).toBeTruthy();
    expect(screen.getByText(message)).toBeTruthy();
    expect(screen.queryByRole('button', { name: f.save })).toBeNull();
  });

  it('counts the users reached without naming them for a caller who may not see users, and says why', async () => {
    const withheld = 'The users are counted, not named: naming them takes the users.view permission.';
    mockTrpc({
      'auth.me': ok(sessionOf(['roles.view', 'roles.update', 'users.export', 'users.delete'])),
      'roles.show': roleShow(),
      'permissions.list': catalogueFor(['roles.view', 'roles.update', 'users.export', 'users.delete']),
      'roles.preview': ok({
        gains: [{ permission: 'users.export', count: 1204, user_ids: [] }],
        losses: [],
        outranks: { count: 2, user_ids: [] },
        two_factor: NO_IMPACT.two_factor,
        users: [],
        people: { allowed: false, code: 'FORBIDDEN', message: withheld },
        refusal: { allowed: true },
      }),
    });
    renderApp('/roles/7/edit');
    await screen.findByText(p.unchanged);
    fireEvent.click(box('users.export'));
    expect(await screen.findByText('1,204 users gain users.export.')).toBeTruthy();
    expect(screen.getByText(withheld)).toBeTruthy();
    expect(screen.queryByText(/more$/)).toBeNull();
    const warning = screen.getByRole('alert');
    expect(within(warning).getByText(p.outranksTitle(2))).toBeTruthy();
    expect(warning.textContent).toContain(p.outranksBody);
  });
});
