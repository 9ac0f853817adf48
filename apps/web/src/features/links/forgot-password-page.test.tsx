import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, UNAUTHENTICATED } from '../../test/trpc-mock';

async function ask(email: string) {
  fireEvent.change(await screen.findByLabelText(en.forgot.email), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: en.forgot.submit }));
}

describe('forgot password', () => {
  it('is reached from the sign-in page without a session', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED) });
    const { router } = renderApp('/login');

    fireEvent.click(await screen.findByRole('link', { name: en.auth.forgotPassword }));

    expect(await screen.findByRole('heading', { level: 1, name: en.forgot.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/forgot-password');
  });

  it('sends the address and says the same neutral sentence whatever the server knows', async () => {
    const api = mockTrpc({ 'passwordReset.forgot': ok({}) });
    renderApp('/forgot-password');

    await ask('Ann@Example.com ');

    const status = await screen.findByRole('status');
    expect(within(status).getByText(en.forgot.sent('ann@example.com'))).toBeTruthy();
    expect(api.callsTo('passwordReset.forgot')).toEqual([{ email: 'ann@example.com' }]);
    // Nothing asked who is signed in: the page works for anyone.
    expect(api.callsTo('auth.me')).toEqual([]);
  });

  it('offers to try another address', async () => {
    mockTrpc({ 'passwordReset.forgot': ok({}) });
    renderApp('/forgot-password');
    await ask('ann@example.com');

    fireEvent.click(await screen.findByRole('button', { name: en.forgot.again }));

    expect(((await screen.findByLabelText(en.forgot.email)) as HTMLInputElement).value).toBe('');
  });

  it('shows the rate limit clearly and keeps the form', async () => {
    const message = 'Too many requests for a reset link. Try again in 15 minutes.';
    mockTrpc({ 'passwordReset.forgot': fail({ message, code: 'RATE_LIMITED', httpStatus: 429 }) });
    renderApp('/forgot-password');

    await ask('ann@example.com');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(en.forgot.rateLimitedTitle)).toBeTruthy();
    expect(within(alert).getByText(message)).toBeTruthy();
    expect(screen.queryByText(en.forgot.sent('ann@example.com'))).toBeNull();
    expect(screen.getByRole('button', { name: en.forgot.submit })).toBeTruthy();
  });

  it('checks the address before asking the server', async () => {
    const api = mockTrpc({});
    renderApp('/forgot-password');

    fireEvent.click(await screen.findByRole('button', { name: en.forgot.submit }));

    expect(await screen.findByText('Enter your e-mail address.')).toBeTruthy();
    await waitFor(() => expect(api.callsTo('passwordReset.forgot')).toEqual([]));
  });
});
