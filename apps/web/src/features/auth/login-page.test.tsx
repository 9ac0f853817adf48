import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf, UNAUTHENTICATED } from '../../test/trpc-mock';

const BAD_CREDENTIALS = 'The e-mail or password is incorrect, or the account is not active.';

async function signIn(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText(en.auth.email), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(en.auth.password), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: en.auth.submit }));
}

describe('login page', () => {
  it('signs in and goes to the users list when the account may see it', async () => {
    const api = mockTrpc({
      'auth.me': fail(UNAUTHENTICATED),
      'auth.login': ok(sessionOf('all')),
      'users.list': 'pending',
    });
    const { router } = renderApp('/login');

    await signIn('admin@example.com', 'admin-password-1');

    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(api.callsTo('auth.login')).toEqual([{ email: 'admin@example.com', password: 'admin-password-1' }]);
  });

  it('returns to the page the user came from after signing in', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED), 'auth.login': ok(sessionOf('all')), 'users.show': 'pending' });
    const { router } = renderApp(`/login?next=${encodeURIComponent('/users/7?tab=roles')}`);

    await signIn('admin@example.com', 'admin-password-1');

    await waitFor(() => expect(router.state.location.pathname).toBe('/users/7'));
    expect(router.state.location.search).toBe('?tab=roles');
  });

  it('shows the server’s message when the credentials are refused, and clears the password', async () => {
    mockTrpc({
      'auth.me': fail(UNAUTHENTICATED),
      'auth.login': fail({ message: BAD_CREDENTIALS, code: 'UNAUTHENTICATED', httpStatus: 401 }),
    });
    const { router } = renderApp('/login');

    await signIn('admin@example.com', 'wrong-password');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(BAD_CREDENTIALS)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect((screen.getByLabelText(en.auth.email) as HTMLInputElement).value).toBe('admin@example.com');
    expect((screen.getByLabelText(en.auth.password) as HTMLInputElement).value).toBe('');
  });

  it('shows the rate limit message on 429', async () => {
    const message = 'Too many sign-in attempts. Try again in 15 minutes.';
    mockTrpc({
      'auth.me': fail(UNAUTHENTICATED),
      'auth.login': fail({ message, code: 'RATE_LIMITED', httpStatus: 429 }),
    });
    renderApp('/login');

    await signIn('admin@example.com', 'whatever-1');

    expect(within(await screen.findByRole('alert')).getByText(message)).toBeTruthy();
  });

  it('checks the fields before asking the server', async () => {
    const api = mockTrpc({ 'auth.me': fail(UNAUTHENTICATED) });
    renderApp('/login');

    fireEvent.click(await screen.findByRole('button', { name: en.auth.submit }));

    expect(await screen.findByText('Enter your e-mail address.')).toBeTruthy();
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(api.callsTo('auth.login')).toHaveLength(0);
  });

  it('sends an account without users.view to a page that says what it may do', async () => {
    mockTrpc({
      'auth.me': fail(UNAUTHENTICATED),
      'auth.login': ok(sessionOf(['roles.view'], { name: 'Rita Reader' })),
    });
    const { router } = renderApp('/login');

    await signIn('rita@example.com', 'rita-password');

    expect(await screen.findByRole('heading', { level: 1, name: en.account.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account');
    expect(screen.getByText(en.permissions.names['roles.view']!.label)).toBeTruthy();
    expect(screen.queryByText(en.permissions.names['users.view']!.label)).toBeNull();
    expect(screen.getByRole('button', { name: en.session.signOut })).toBeTruthy();
    expect(screen.queryByRole('link', { name: en.nav.users })).toBeNull();
  });
});
