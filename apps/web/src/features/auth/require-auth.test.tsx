import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf, UNAUTHENTICATED } from '../../test/trpc-mock';

describe('RequireAuth', () => {
  it('sends a signed-out visitor to the login page with the way back', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED) });
    const { router } = renderApp('/users/5?tab=roles');

    expect(await screen.findByRole('heading', { level: 1, name: en.auth.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/users/5?tab=roles');
  });

  it('signs out on a 401 from any query and comes back to the same page', async () => {
    const api = mockTrpc({ 'auth.me': ok(sessionOf('all')) });
    api.set('users.show', () => {
      // The session ended server side: from now on every call is refused.
      api.set('auth.me', fail(UNAUTHENTICATED));
      return fail(UNAUTHENTICATED);
    });
    const { router } = renderApp('/users/5');

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/users/5');
  });

  it('signs out from the user menu', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all', { name: 'Ada Admin' })),
      'auth.logout': ok(null),
      'system.ready': ok({ status: 'ok', version: '1.0.0', checks: { database: 'ok' } }),
    });
    const { router } = renderApp('/status');

    const trigger = await screen.findByRole('button', { name: 'Ada Admin' });
    fireEvent.keyDown(trigger, { key: 'Enter' });
    api.set('auth.me', fail(UNAUTHENTICATED));
    fireEvent.click(await screen.findByRole('menuitem', { name: en.userMenu.signOut }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('');
    expect(api.callsTo('auth.logout')).toHaveLength(1);
  });
});
