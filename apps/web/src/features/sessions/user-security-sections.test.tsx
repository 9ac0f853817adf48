import type { AuditListResult, AuditRow, Permission } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { apiToken, FIREFOX_WINDOWS, sessionInfo, signInRow } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { userShow } from '../../test/user-fixtures';

const s = en.sessions;
const k = en.tokens;
const OUTRANKED = {
  message: 'Ann Lee holds permissions you do not have (users.delete): only someone who holds all of them can do this.',
  code: 'OUTRANKED',
  httpStatus: 403,
};

const region = (name: string) => screen.findByRole('region', { name });

const signIns = (rows: AuditRow[], total = rows.length, page = 1): AuditListResult => ({
  rows,
  meta: { page, perPage: 10, total, totalExact: true, pageCount: Math.ceil(total / 10) },
  filters: {},
});

describe('the user page’s Sessions, API tokens and Sign-in history', () => {
  it.each([
    [['users.view'], []],
    [['users.view', 'users.update'], [s.user.title]],
    [['users.view', 'tokens.manage'], [k.user.title]],
    [
      ['users.view', 'audit.view'],
      [s.signIns.title, en.audit.history.title],
    ],
  ] as Array<[Permission[], string[]]>)('with %j shows exactly %j', async (granted, shown) => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(granted)),
      'users.show': ok(userShow({}, granted)),
      'sessions.listFor': 'pending',
      'tokens.listFor': 'pending',
      'audit.list': 'pending',
    });
    renderApp('/users/42');

    await screen.findByRole('heading', { level: 1, name: 'Ann Lee' });
    const titles = [s.user.title, k.user.title, s.signIns.title, en.audit.history.title];
    await waitFor(() =>
      expect(titles.filter((title) => screen.queryByRole('region', { name: title })).sort()).toEqual([...shown].sort()),
    );
    expect(api.callsTo('sessions.listFor').length > 0).toBe(granted.includes('users.update'));
    expect(api.callsTo('tokens.listFor').length > 0).toBe(granted.includes('tokens.manage'));
  });

  it('ends one session, and all of them, each after a question', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.update'])),
      'users.show': ok(userShow({}, ['users.view', 'users.update'])),
      'sessions.listFor': ok({ items: [sessionInfo({ id: 'abc', user_agent: FIREFOX_WINDOWS })] }),
      'sessions.revokeFor': ok(null),
      'sessions.revokeAllFor': ok({ revoked: 1 }),
    });
    renderApp('/users/42');

    const sessions = await region(s.user.title);
    fireEvent.click(
      await within(sessions).findByRole('button', { name: `${s.user.end} ${s.user.endDevice('Firefox on Windows')}` }),
    );
    let dialog = await screen.findByRole('dialog', { name: s.user.endTitle('Firefox on Windows') });
    fireEvent.click(within(dialog).getByRole('button', { name: s.user.end }));
    await waitFor(() => expect(api.callsTo('sessions.revokeFor')).toEqual([{ id: 42, sessionId: 'abc' }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(sessions).getByRole('button', { name: s.user.endAll }));
    dialog = await screen.findByRole('dialog', { name: s.user.endAllTitle('Ann Lee') });
    fireEvent.click(within(dialog).getByRole('button', { name: s.user.endAllConfirm }));
    await waitFor(() => expect(api.callsTo('sessions.revokeAllFor')).toEqual([{ id: 42 }]));
    expect(await screen.findByText(s.user.endedAll(1))).toBeTruthy();
  });

  it('shows the server’s reason instead of buttons when the user outranks the viewer', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.update', 'tokens.manage'])),
      'users.show': ok(userShow({}, ['users.view', 'users.update', 'tokens.manage'])),
      'sessions.listFor': fail(OUTRANKED),
      'tokens.listFor': fail(OUTRANKED),
    });
    renderApp('/users/42');

    const sessions = await region(s.user.title);
    expect(await within(sessions).findByText(OUTRANKED.message)).toBeTruthy();
    expect(within(sessions).getByText(s.user.outrankedTitle)).toBeTruthy();
    expect(within(sessions).queryByRole('button')).toBeNull();
    const tokens = await region(k.user.title);
    expect(await within(tokens).findByText(OUTRANKED.message)).toBeTruthy();
    expect(within(tokens).queryByRole('button')).toBeNull();
  });

  it('does not repeat, section by section, the reason the page’s banner already gives', async () => {
    const granted = ['users.view', 'users.update', 'tokens.manage'] as const;
    const base = userShow({}, granted).item;
    const outranked = { allowed: false, code: 'OUTRANKED' as const, message: OUTRANKED.message };
    mockTrpc({
      'auth.me': ok(sessionOf(granted)),
      'users.show': ok(userShow({ ...base, actions: { ...base.actions, update: outranked } }, granted)),
      'sessions.listFor': fail(OUTRANKED),
      'tokens.listFor': fail(OUTRANKED),
    });
    renderApp('/users/42');

    const sessions = await region(s.user.title);
    expect(await within(sessions).findByText(s.user.outrankedTitle)).toBeTruthy();
    expect(within(await region(k.user.title)).getByText(k.user.outrankedTitle)).toBeTruthy();
    expect(screen.getAllByText(OUTRANKED.message)).toHaveLength(1);
    expect(within(sessions).queryByRole('button')).toBeNull();
  });

  it('replaces the buttons with the reason when ending a session is refused as OUTRANKED', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.update'])),
      'users.show': ok(userShow({}, ['users.view', 'users.update'])),
      'sessions.listFor': ok({ items: [sessionInfo({ id: 'abc', user_agent: FIREFOX_WINDOWS })] }),
      'sessions.revokeAllFor': fail(OUTRANKED),
    });
    renderApp('/users/42');

    const sessions = await region(s.user.title);
    fireEvent.click(await within(sessions).findByRole('button', { name: s.user.endAll }));
    const dialog = await screen.findByRole('dialog', { name: s.user.endAllTitle('Ann Lee') });
    fireEvent.click(within(dialog).getByRole('button', { name: s.user.endAllConfirm }));

    expect(await within(sessions).findByText(OUTRANKED.message)).toBeTruthy();
    expect(within(sessions).queryByRole('button')).toBeNull();
    // The list stays: only the controls go.
    expect(within(sessions).getByRole('heading', { name: 'Firefox on Windows' })).toBeTruthy();
  });

  it('creates a token for the user, narrowed to what they hold, shows the secret once, and revokes', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'tokens.manage'])),
      'users.show': ok(userShow({ permission_names: ['users.view', 'users.export'] }, ['users.view', 'tokens.manage'])),
      'tokens.listFor': ok({ items: [apiToken({ id: 5, name: 'Nightly export', created_by: null })] }),
      // What the server offers for this owner and this caller: both hold these two.
      'tokens.optionsFor': ok({ scopes: ['users.view', 'users.export'] }),
      'tokens.createFor': ok({ item: apiToken({ id: 6, name: 'Exports' }), token: 'uat_6_secret' }),
      'tokens.revokeFor': ok(null),
    });
    renderApp('/users/42');

    const tokens = await region(k.user.title);
    expect(await within(tokens).findByText(k.list.allOwnerPermissions)).toBeTruthy();
    fireEvent.click(within(tokens).getByRole('button', { name: k.user.create }));
    const form = await screen.findByRole('dialog', { name: k.form.titleFor('Ann Lee') });
    fireEvent.change(within(form).getByLabelText(k.form.name), { target: { value: 'Exports' } });
    fireEvent.click(within(form).getByRole('switch', { name: k.form.narrow }));
    const scopes = await within(form).findByRole('group', { name: k.form.scopes });
    expect(within(scopes).getAllByRole('checkbox')).toHaveLength(2);
    fireEvent.click(within(scopes).getByRole('checkbox', { name: en.permissions.names['users.export']!.label }));
    fireEvent.click(within(form).getByRole('button', { name: k.form.submit }));

    const secret = await screen.findByRole('dialog', { name: k.secret.title });
    expect(within(secret).getByDisplayValue('uat_6_secret')).toBeTruthy();
    const [sent] = api.callsTo('tokens.createFor') as [Record<string, unknown>];
    expect(sent).toMatchObject({ id: 42, name: 'Exports', scopes: ['users.export'] });
    fireEvent.click(within(secret).getByRole('button', { name: k.secret.done }));
    await waitFor(() => expect(screen.queryByDisplayValue('uat_6_secret')).toBeNull());

    fireEvent.click(within(tokens).getByRole('button', { name: k.list.revokeNamed('Nightly export') }));
    const confirm = await screen.findByRole('dialog', { name: k.revoke.title('Nightly export') });
    fireEvent.click(within(confirm).getByRole('button', { name: k.revoke.confirm }));
    await waitFor(() => expect(api.callsTo('tokens.revokeFor')).toEqual([{ id: 42, tokenId: 5 }]));
  });

  it('lists sign-ins and failures with IP and device, a page at a time', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'audit.view'])),
      'users.show': ok(userShow({}, ['users.view', 'audit.view'])),
      'audit.list': (input) => {
        const filters = (input as { filters: { action?: string[] } }).filters;
        if (!filters.action) return ok(signIns([]));
        const page = (input as { page: number }).page;
        return ok(
          signIns(
            page === 1
              ? [
                  signInRow({ id: 3, action: 'auth.loginFailed', ip: '192.0.2.66', user_agent: FIREFOX_WINDOWS }),
                  signInRow({ id: 2, ip: '198.51.100.7' }),
                ]
              : [signInRow({ id: 1, ip: '198.51.100.1', user_agent: null })],
            12,
            page,
          ),
        );
      },
    });
    renderApp('/users/42');

    const history = await region(s.signIns.title);
    const list = await within(history).findByRole('list', { name: s.signIns.label });
    const [failed, succeeded] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(failed).getByText(s.signIns.failed)).toBeTruthy();
    expect(within(failed).getByText('192.0.2.66')).toBeTruthy();
    expect(within(failed).getByText('Firefox on Windows')).toBeTruthy();
    expect(within(succeeded).getByText(s.signIns.succeeded)).toBeTruthy();
    expect(within(succeeded).getByText('Chrome on Linux')).toBeTruthy();
    expect(api.callsTo('audit.list')).toContainEqual({
      page: 1,
      perPage: 10,
      filters: { user_id: 42, action: ['auth.login', 'auth.loginFailed'] },
    });

    fireEvent.click(within(history).getByRole('button', { name: s.signIns.pagination.next }));
    expect(await within(history).findByText('198.51.100.1')).toBeTruthy();
    expect(api.callsTo('audit.list')).toContainEqual({
      page: 2,
      perPage: 10,
      filters: { user_id: 42, action: ['auth.login', 'auth.loginFailed'] },
    });
  });
});
