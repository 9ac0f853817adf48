import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const TOKEN = 'tok_abc123';
const INVALID_TOKEN = {
  message: 'This link is not valid: it has expired or was already used.',
  code: 'INVALID_TOKEN',
  httpStatus: 422,
};

async function choose(password: string, confirmation = password, submit = en.linkPassword.inviteSubmit) {
  fireEvent.change(await screen.findByLabelText(en.linkPassword.password), { target: { value: password } });
  fireEvent.change(screen.getByLabelText(en.linkPassword.confirmation), { target: { value: confirmation } });
  fireEvent.click(screen.getByRole('button', { name: submit }));
}

describe('invitation link', () => {
  it('sets the password with the link’s token and signs the person in', async () => {
    const api = mockTrpc({
      'invitations.accept': ok(sessionOf(['users.view'], { name: 'Ivy Invited' })),
      'users.list': 'pending',
      'users.stats': 'pending',
    });
    const { router } = renderApp(`/invite/${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: en.linkPassword.inviteTitle })).toBeTruthy();
    await choose('a-long-password-1');

    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(api.callsTo('invitations.accept')).toEqual([
      { token: TOKEN, password: 'a-long-password-1', password_confirmation: 'a-long-password-1' },
    ]);
  });

  it('shows the password policy’s refusals by the fields, from the form and from the server', async () => {
    const api = mockTrpc({
      'invitations.accept': fail({
        message: 'The given data was invalid.',
        code: 'VALIDATION_FAILED',
        httpStatus: 422,
        errors: { password: ['This password has appeared in a data breach. Choose another.'] },
      }),
    });
    renderApp(`/invite/${TOKEN}`);

    await choose('short', 'different');
    expect(await screen.findByText('The password must be at least 8 characters long.')).toBeTruthy();
    expect(screen.getByText('The password confirmation does not match the password.')).toBeTruthy();
    expect(api.callsTo('invitations.accept')).toEqual([]);

    await choose('password123', 'password123');
    const field = await screen.findByText('This password has appeared in a data breach. Choose another.');
    expect(field).toBeTruthy();
    expect(screen.queryByRole('alert', { name: en.linkPassword.failedTitle })).toBeNull();
  });

  it('shows a clear page for an expired, used or tampered link, and nothing else', async () => {
    mockTrpc({ 'invitations.accept': fail(INVALID_TOKEN) });
    renderApp(`/invite/${TOKEN}`);

    await choose('a-long-password-1');

    expect(await screen.findByRole('heading', { level: 1, name: en.spentLink.title })).toBeTruthy();
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(en.spentLink.description)).toBeTruthy();
    expect(within(alert).getByText(en.spentLink.inviteNext)).toBeTruthy();
    expect(screen.queryByLabelText(en.linkPassword.password)).toBeNull();
    expect(screen.getByRole('link', { name: en.spentLink.signIn }).getAttribute('href')).toBe('/login');
  });

  it('treats a link too long to be one of ours as spent, without asking the server', async () => {
    const api = mockTrpc({});
    renderApp(`/invite/${'x'.repeat(300)}`);

    await choose('a-long-password-1');

    expect(await screen.findByRole('heading', { level: 1, name: en.spentLink.title })).toBeTruthy();
    expect(api.callsTo('invitations.accept')).toEqual([]);
  });
});

describe('password reset link', () => {
  it('sets the new password and sends the person to sign in with it', async () => {
    const api = mockTrpc({ 'passwordReset.reset': ok({}), 'auth.me': 'pending' });
    const { router } = renderApp(`/reset-password/${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: en.linkPassword.resetTitle })).toBeTruthy();
    await choose('a-new-password-2', 'a-new-password-2', en.linkPassword.resetSubmit);

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(en.linkPassword.resetDone)).toBeTruthy();
    expect(api.callsTo('passwordReset.reset')).toEqual([
      { token: TOKEN, password: 'a-new-password-2', password_confirmation: 'a-new-password-2' },
    ]);
  });

  it('offers a new link when this one is spent', async () => {
    mockTrpc({ 'passwordReset.reset': fail(INVALID_TOKEN), 'auth.me': 'pending' });
    const { router } = renderApp(`/reset-password/${TOKEN}`);

    await choose('a-new-password-2', 'a-new-password-2', en.linkPassword.resetSubmit);

    expect(within(await screen.findByRole('alert')).getByText(en.spentLink.resetNext)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: en.spentLink.requestNew }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
  });

  it('shows any other refusal above the form and keeps it', async () => {
    const message = 'Too many attempts. Try again in a minute.';
    mockTrpc({ 'passwordReset.reset': fail({ message, code: 'RATE_LIMITED', httpStatus: 429 }) });
    renderApp(`/reset-password/${TOKEN}`);

    await choose('a-new-password-2', 'a-new-password-2', en.linkPassword.resetSubmit);

    expect(within(await screen.findByRole('alert')).getByText(message)).toBeTruthy();
    expect(screen.getByLabelText(en.linkPassword.password)).toBeTruthy();
  });
});
