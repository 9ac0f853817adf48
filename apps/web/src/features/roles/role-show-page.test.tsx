import { PERMISSION_CATALOGUE } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { roleEditorMessages } from '../../i18n/role-editor-messages';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { NO_IMPACT, person, roleShow } from './role-test-fixtures';

const t = roleEditorMessages;

/** What the server answers a caller holding neither roles.update nor roles.delete (domain/roles.rules.ts). */
const NO_ROLE_CHANGES = {
  update: { allowed: false, code: 'FORBIDDEN' as const, message: 'You need the roles.update permission to do this.' },
  delete: { allowed: false, code: 'FORBIDDEN' as const, message: 'You need the roles.delete permission to do this.' },
};
const words = (name: string) => en.permissions.names[name]?.label ?? name;

describe('role page', { timeout: 20_000 }, () => {
  it('shows the role, its description, its members and what it grants as a read-only matrix', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['roles.view', 'users.view'])),
      'roles.show': roleShow({ actions: NO_ROLE_CHANGES }),
    });
    renderApp('/roles/7');

    expect(await screen.findByRole('heading', { level: 1, name: 'support' })).toBeTruthy();
    expect(screen.getByText('Answers customers')).toBeTruthy();
    expect(screen.getByText(en.role.permissionCount(2))).toBeTruthy();
    expect(screen.getByRole('link', { name: t.show.members(3) }).getAttribute('href')).toBe(
      '/users?filters[role_id][]=7',
    );
    const cell = (name: string) => screen.getByText(words(name)).closest('li');
    expect(cell('users.delete')?.textContent).toContain(en.role.granted);
    expect(cell('users.export')?.textContent).toContain(en.role.notGranted);
    expect(screen.getAllByText(en.role.granted)).toHaveLength(2);
    // Each permission's description under its resource's row, as on a phone; no "Guard: web".
    const described = screen.getByText(PERMISSION_CATALOGUE['users.delete'].description, { selector: 'dd' });
    expect(described.previousElementSibling?.textContent).toBe(t.matrix.actions.delete);
    expect(screen.queryByText(/guard/i)).toBeNull();
    // Read-only: nothing to tick, and no Edit or Delete when the server refuses them as FORBIDDEN.
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('link', { name: t.show.edit })).toBeNull();
    expect(screen.queryByRole('button', { name: t.show.delete })).toBeNull();
    expect(api.callsTo('roles.show')[0]).toEqual({ id: 7, with: ['permissions'], withCount: ['permissions', 'users'] });
  });

  it('offers Edit and Delete as the server allows, with its reason when it does not', async () => {
    const reason = 'You cannot change the role support: it grants permissions you do not hold (users.delete).';
    mockTrpc({
      'auth.me': ok(sessionOf(['roles.view', 'roles.update', 'roles.delete'])),
      'roles.show': roleShow({
        actions: {
          update: { allowed: false, code: 'OUTRANKED', message: reason },
          delete: { allowed: true },
        },
      }),
    });
    renderApp('/roles/7');

    const edit = await screen.findByRole('button', { name: t.show.edit });
    expect(edit.getAttribute('aria-disabled')).toBe('true');
    expect(edit.getAttribute('title')).toBe(reason);
    expect(screen.getByRole('button', { name: t.show.delete }).getAttribute('aria-disabled')).toBeNull();
  });

  it('follows the server’s actions, not the capability map, when the two disagree', async () => {
    // The session says roles.update and roles.delete; the server (say, a token narrowed since) refuses both.
    mockTrpc({
      'auth.me': ok(sessionOf(['roles.view', 'roles.update', 'roles.delete'])),
      'roles.show': roleShow({ actions: NO_ROLE_CHANGES }),
    });
    const first = renderApp('/roles/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'support' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: t.show.edit })).toBeNull();
    expect(screen.queryByRole('button', { name: t.show.edit })).toBeNull();
    expect(screen.queryByRole('button', { name: t.show.delete })).toBeNull();
    first.unmount();

    // The session says neither; the server allows both.
    mockTrpc({ 'auth.me': ok(sessionOf(['roles.view'])), 'roles.show': roleShow() });
    renderApp('/roles/7');
    const edit = await screen.findByRole('link', { name: t.show.edit });
    expect(edit.getAttribute('href')).toBe('/roles/7/edit');
    expect(screen.getByRole('button', { name: t.show.delete }).getAttribute('aria-disabled')).toBeNull();
  });

  it('deletes a role with members after showing what they lose and the role’s name is typed, detaching them', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'roles.show': roleShow({ name: 'Help Desk', users_count: 2462 }),
      'roles.preview': ok({
        ...NO_IMPACT,
        losses: [
          { permission: 'users.delete', count: 2462, user_ids: [3, 8] },
          { permission: 'users.view', count: 12, user_ids: [] },
        ],
        users: [person(3, 'Ana'), person(8, 'Cy')],
      }),
      'roles.delete': ok(null),
      'roles.list': 'pending',
    });
    const { router } = renderApp('/roles/7');

    fireEvent.click(await screen.findByRole('button', { name: t.show.delete }));
    const dialog = await screen.findByRole('dialog', { name: t.remove.title('Help Desk') });
    expect(within(dialog).getByText(new RegExp(t.remove.members(2462, 'Help Desk')))).toBeTruthy();
    // The impact is the role editor's preview of the role granting and requiring nothing.
    const sentence = t.preview.sentence([t.preview.lose(2462, 'users.delete'), t.preview.lose(12, 'users.view')]);
    expect(await within(dialog).findByText(sentence)).toBeTruthy();
    expect(within(dialog).getByText(t.preview.firstUsers(['Ana', 'Cy'], 2460))).toBeTruthy();
    expect(api.callsTo('roles.preview')).toEqual([{ id: 7, permissions: [], require_two_factor: false }]);

    // Focus waits in the name field; the button stays disabled until the name matches.
    const field = within(dialog).getByLabelText(t.remove.typeName('Help Desk')) as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    const confirm = within(dialog).getByRole('button', { name: t.remove.confirm }) as HTMLButtonElement;
    for (const wrong of ['', 'Help', 'HelpDesk', 'Help Desk s']) {
      fireEvent.change(field, { target: { value: wrong } });
      expect(confirm.disabled).toBe(true);
    }
    fireEvent.click(confirm);
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(api.callsTo('roles.delete')).toEqual([]);

    // Whatever its case and spacing, as the server compares role names.
    fireEvent.change(field, { target: { value: '  help   DESK ' } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);

    await waitFor(() => expect(router.state.location.pathname).toBe('/roles'));
    expect(api.callsTo('roles.delete')).toEqual([{ id: 7, detach: true }]);
    expect(await screen.findByText(t.remove.done('Help Desk'))).toBeTruthy();
  });

  it('says so when its members lose no permission, and when what they lose cannot be checked', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'roles.show': roleShow(),
      'roles.preview': ok(NO_IMPACT),
    });
    const first = renderApp('/roles/7');
    fireEvent.click(await screen.findByRole('button', { name: t.show.delete }));
    let dialog = await screen.findByRole('dialog', { name: t.remove.title('support') });
    expect(await within(dialog).findByText(t.remove.losesNothing)).toBeTruthy();
    first.unmount();

    api.set(
      'roles.preview',
      fail({ message: 'You need the roles.update permission to do this.', code: 'FORBIDDEN', httpStatus: 403 }),
    );
    renderApp('/roles/7');
    fireEvent.click(await screen.findByRole('button', { name: t.show.delete }));
    dialog = await screen.findByRole('dialog', { name: t.remove.title('support') });
    expect(await within(dialog).findByText(t.remove.impactFailed)).toBeTruthy();
    // The count still stands, and so does the typed confirmation.
    expect(within(dialog).getByText(new RegExp(t.remove.members(3, 'support')))).toBeTruthy();
    expect(within(dialog).getByLabelText(t.remove.typeName('support'))).toBeTruthy();
  });

  it('deletes a role nobody holds without detaching, and shows a refusal in the dialog', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'roles.show': roleShow({ users_count: 0 }),
      'roles.delete': fail({
        message: 'This would leave no active user holding every permission.',
        code: 'LAST_ADMIN',
        httpStatus: 422,
      }),
    });
    const { router } = renderApp('/roles/7');

    fireEvent.click(await screen.findByRole('button', { name: t.show.delete }));
    const dialog = await screen.findByRole('dialog', { name: t.remove.title('support') });
    expect(within(dialog).queryByText(/will lose it/)).toBeNull();
    // Nobody holds it: one click, no name to type, no impact to read.
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(api.callsTo('roles.preview')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: t.remove.confirm }));

    expect(await within(dialog).findByText('This would leave no active user holding every permission.')).toBeTruthy();
    expect(api.callsTo('roles.delete')).toEqual([{ id: 7 }]);
    expect(router.state.location.pathname).toBe('/roles/7');
  });
});
