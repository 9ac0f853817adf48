import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { roleEditorMessages } from '../../i18n/role-editor-messages';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { catalogueFor, NO_IMPACT, roleItem, roleShow } from './role-test-fixtures';

const f = roleEditorMessages.form;
const label = (name: string) => en.permissions.names[name]?.label ?? name;
const box = (name: string) => screen.getByRole('checkbox', { name: label(name) }) as HTMLInputElement;

describe('the new role page', { timeout: 20_000 }, () => {
  it('creates a role with the ticked permissions, says so and opens it', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'permissions.list': catalogueFor('all'),
      'roles.previewNew': ok(NO_IMPACT),
      'roles.create': (input) => ok({ item: roleItem({ id: 12, name: (input as { name: string }).name }) }),
      'roles.show': roleShow({ id: 12, name: 'exporters' }),
    });
    const { router } = renderApp('/roles/new');

    fireEvent.change(await screen.findByLabelText(f.name), { target: { value: 'exporters' } });
    fireEvent.click(box('users.view'));
    fireEvent.click(box('users.export'));
    expect(box('users.export').checked).toBe(true);
    // A new role has no members yet: the preview says so, and is asked with the ticked set.
    expect(await screen.findByText(roleEditorMessages.preview.noMembers)).toBeTruthy();
    await waitFor(() =>
      expect(api.callsTo('roles.previewNew').at(-1)).toEqual({ permissions: ['users.view', 'users.export'] }),
    );
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/roles/12'));
    expect(api.callsTo('roles.create')).toEqual([
      { name: 'exporters', description: null, permissions: ['users.view', 'users.export'], require_two_factor: false },
    ]);
    expect(await screen.findByText(f.created)).toBeTruthy();
  });

  it('ticks every permission of a resource with its All box, and clears them again', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'permissions.list': catalogueFor('all'),
      'roles.previewNew': ok(NO_IMPACT),
    });
    renderApp('/roles/new');

    const all = await screen.findByRole('checkbox', { name: roleEditorMessages.matrix.allOf('Users') });
    fireEvent.click(all);
    expect(box('users.forceDelete').checked).toBe(true);
    expect(box('roles.view').checked).toBe(false);
    fireEvent.click(all);
    expect(box('users.forceDelete').checked).toBe(false);
  });

  it('shows the server’s refusal of the name on the name field', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'permissions.list': catalogueFor('all'),
      'roles.previewNew': ok(NO_IMPACT),
      'roles.create': fail({
        message: 'A role named support already exists.',
        code: 'VALIDATION_FAILED',
        httpStatus: 422,
        errors: { name: ['A role named support already exists.'] },
      }),
    });
    renderApp('/roles/new');

    const name = (await screen.findByLabelText(f.name)) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'Support' } });
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('A role named support already exists.')).toBeTruthy();
    expect(document.activeElement).toBe(name);
  });

  it('checks the name with the contracts’ schema before sending', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'permissions.list': catalogueFor('all'),
      'roles.previewNew': ok(NO_IMPACT),
    });
    renderApp('/roles/new');

    const name = await screen.findByLabelText(f.name);
    fireEvent.change(name, { target: { value: 'Help\u202eDesk' } });
    fireEvent.click(screen.getByRole('button', { name: f.create }));
    expect(
      await screen.findByText(
        'The name contains an invisible or control character (U+202E). Type it again without it.',
      ),
    ).toBeTruthy();

    fireEvent.change(name, { target: { value: 'Sales, EMEA' } });
    fireEvent.click(screen.getByRole('button', { name: f.create }));
    expect(await screen.findByText(/cannot hold a comma, a semicolon or a vertical bar/)).toBeTruthy();
    expect(api.callsTo('roles.create')).toHaveLength(0);
  });

  it('sends a name with spaces and any letters, tidied as the server stores it', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'permissions.list': catalogueFor('all'),
      'roles.previewNew': ok(NO_IMPACT),
      'roles.create': (input) => ok({ item: roleItem({ id: 14, name: (input as { name: string }).name }) }),
      'roles.show': roleShow({ id: 14, name: 'Sales – EMEA' }),
    });
    const { router } = renderApp('/roles/new');

    fireEvent.change(await screen.findByLabelText(f.name), { target: { value: '  Sales   –  EMEA ' } });
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/roles/14'));
    expect(api.callsTo('roles.create')).toEqual([
      { name: 'Sales – EMEA', description: null, permissions: [], require_two_factor: false },
    ]);
    // Shown as it is spelled: no CSS re-casing (`capitalize` once made "iOS team" read "IOS Team").
    const heading = await screen.findByRole('heading', { name: 'Sales – EMEA' });
    expect(heading.className).not.toMatch(/\bcapitalize\b/);
  });
});
