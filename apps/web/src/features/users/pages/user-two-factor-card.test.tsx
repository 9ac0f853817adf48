import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountMessages } from '../../../i18n/account-messages';
import { NO_HISTORY, NO_SECURITY_ANSWERS } from '../../../test/integration-fixtures';
import { renderApp } from '../../../test/render-app';
import { mockRest, problem } from '../../../test/rest-mock';
import { mockTrpc, ok, sessionOf } from '../../../test/trpc-mock';
import { userShow } from '../../../test/user-fixtures';

const t = accountMessages.userTwoFactor;
const ENROLLED = { two_factor: { enrolled: true, required: false } };

function userPageApi(item: Parameters<typeof userShow>[0]) {
  mockTrpc({
    'auth.me': ok(sessionOf('all')),
    ...NO_HISTORY,
    ...NO_SECURITY_ANSWERS,
    'users.show': ok(userShow(item)),
  });
}

describe('user page: two-factor reset', { timeout: 20_000 }, () => {
  it('resets a user’s second factor after a confirmation', async () => {
    userPageApi(ENROLLED);
    const api = mockRest({ 'DELETE /users/42/two-factor': { status: 204 } });
    renderApp('/users/42');

    fireEvent.click(await screen.findByRole('button', { name: t.reset }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(t.confirmTitle('Ann Lee'))).toBeTruthy();
    expect(api.calls).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: t.reset }));

    await waitFor(() => expect(api.calls.map((call) => call.route)).toEqual(['DELETE /users/42/two-factor']));
    expect(await screen.findByText(t.done('Ann Lee'))).toBeTruthy();
  });

  it('shows the server’s refusal (the factor went since the page was read)', async () => {
    userPageApi(ENROLLED);
    mockRest({
      'DELETE /users/42/two-factor': problem(
        409,
        'TWO_FACTOR_NOT_ENROLLED',
        'Two-factor sign-in is not on for this account.',
      ),
    });
    renderApp('/users/42');

    fireEvent.click(await screen.findByRole('button', { name: t.reset }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t.reset }));
    expect(await screen.findByText('Two-factor sign-in is not on for this account.')).toBeTruthy();
  });

  it('offers no reset to a viewer the server does not let change this user', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view'])),
      ...NO_HISTORY,
      ...NO_SECURITY_ANSWERS,
      'users.show': ok(userShow(ENROLLED, ['users.view'])),
    });
    renderApp('/users/42');

    expect(await screen.findByRole('heading', { name: t.title })).toBeTruthy();
    expect(screen.getByText(t.on)).toBeTruthy();
    expect(screen.queryByRole('button', { name: t.reset })).toBeNull();
  });

  it('says it is off and offers no reset when the user has no second factor', async () => {
    userPageApi({ two_factor: { enrolled: false, required: false } });
    renderApp('/users/42');

    expect(await screen.findByText(t.off)).toBeTruthy();
    expect(screen.queryByText(t.requiredMissing)).toBeNull();
    expect(screen.queryByRole('button', { name: t.reset })).toBeNull();
  });

  it('says when the user’s roles require a second factor they have not set up', async () => {
    userPageApi({ two_factor: { enrolled: false, required: true } });
    renderApp('/users/42');

    expect(await screen.findByText(t.requiredMissing)).toBeTruthy();
    expect(screen.getByText(t.off)).toBeTruthy();
  });

  it('says when the user’s roles require the second factor they have', async () => {
    userPageApi({ two_factor: { enrolled: true, required: true } });
    renderApp('/users/42');

    expect(await screen.findByText(t.required)).toBeTruthy();
    expect(screen.getByText(t.on)).toBeTruthy();
    expect(screen.getByRole('button', { name: t.reset })).toBeTruthy();
  });
});
