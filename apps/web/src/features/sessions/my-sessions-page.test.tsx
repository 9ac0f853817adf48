import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { CHROME_LINUX, FIREFOX_WINDOWS, SAFARI_IPHONE, sessionInfo } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf, UNAUTHENTICATED } from '../../test/trpc-mock';

const t = en.sessions;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
// Listed as the server may send them; the page shows this device first, then the most recent.
const SESSIONS = [
  sessionInfo({ id: 'laptop', user_agent: FIREFOX_WINDOWS, ip: '192.0.2.8', last_seen_at: minutesAgo(5) }),
  sessionInfo({ id: 'current', current: true, user_agent: CHROME_LINUX, ip: '203.0.113.5' }),
  sessionInfo({ id: 'phone', user_agent: SAFARI_IPHONE, ip: '198.51.100.20', last_seen_at: minutesAgo(2) }),
];

describe('my sessions', () => {
  it('names each device from its user agent and marks this one, listed first', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf([])), 'auth.sessions': ok({ items: SESSIONS }) });
    renderApp('/account/sessions');

    const list = await screen.findByRole('list', { name: t.list.label });
    const [current, phone, laptop] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(current).getByRole('heading', { name: 'Chrome on Linux' }).getAttribute('title')).toBe(CHROME_LINUX);
    expect(within(current).getByText(t.list.thisDevice)).toBeTruthy();
    expect(within(current).getByText('203.0.113.5')).toBeTruthy();
    expect(within(phone).getByRole('heading', { name: 'Safari on iOS' })).toBeTruthy();
    expect(within(phone).queryByText(t.list.thisDevice)).toBeNull();
    expect(within(laptop).getByRole('heading', { name: 'Firefox on Windows' })).toBeTruthy();
    expect(within(laptop).getByText('5 minutes ago')).toBeTruthy();
  });

  it('signs out all other sessions after confirmation', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf([])),
      'auth.sessions': ok({ items: SESSIONS }),
      'auth.revokeOtherSessions': ok({ revoked: 2 }),
    });
    renderApp('/account/sessions');

    fireEvent.click(await screen.findByRole('button', { name: t.others.button }));
    const dialog = await screen.findByRole('dialog', { name: t.others.title });
    expect(api.callsTo('auth.revokeOtherSessions')).toEqual([]);
    api.set('auth.sessions', ok({ items: [SESSIONS[1]] }));
    fireEvent.click(within(dialog).getByRole('button', { name: t.others.confirm }));

    expect(await screen.findByText(t.others.done(2))).toBeTruthy();
    expect(api.callsTo('auth.revokeOtherSessions')).toHaveLength(1);
    const list = screen.getByRole('list', { name: t.list.label });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: t.others.button })).toBeNull();
    expect(screen.getByText(t.others.none)).toBeTruthy();
  });

  it('ends another device’s session at once and keeps this one', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf([])),
      'auth.sessions': ok({ items: SESSIONS }),
      'auth.revokeSession': ok(null),
    });
    const { router } = renderApp('/account/sessions');

    fireEvent.click(
      await screen.findByRole('button', { name: `${t.list.signOut} ${t.list.signOutDevice('Safari on iOS')}` }),
    );
    await waitFor(() => expect(api.callsTo('auth.revokeSession')).toEqual([{ sessionId: 'phone' }]));
    expect(await screen.findByText(t.ended)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/sessions');
  });

  it('goes to the login page after ending the session of this device', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf([])),
      'auth.sessions': ok({ items: SESSIONS }),
      'auth.revokeSession': ok(null),
    });
    const { router } = renderApp('/account/sessions');

    fireEvent.click(
      await screen.findByRole('button', { name: `${t.list.signOut} ${t.list.signOutDevice('Chrome on Linux')}` }),
    );
    api.set('auth.me', { error: UNAUTHENTICATED });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(api.callsTo('auth.revokeSession')).toEqual([{ sessionId: 'current' }]);
  });

  it('says when the sessions cannot be loaded, and tries again', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf([])),
      'auth.sessions': { error: { message: 'Down for maintenance.', code: 'UNAVAILABLE', httpStatus: 503 } },
    });
    renderApp('/account/sessions');

    expect(await screen.findByText(t.list.errorTitle)).toBeTruthy();
    api.set('auth.sessions', ok({ items: SESSIONS }));
    fireEvent.click(screen.getByRole('button', { name: t.list.retry }));
    expect(await screen.findByRole('list', { name: t.list.label })).toBeTruthy();
  });
});
