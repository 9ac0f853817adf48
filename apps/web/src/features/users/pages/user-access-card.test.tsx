import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { NO_HISTORY, NO_SECURITY_ANSWERS } from '../../../test/integration-fixtures';
import { renderApp } from '../../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../../test/trpc-mock';
import { showActionsFor, userShow } from '../../../test/user-fixtures';

const t = en.userAccess;
const SENT = '2026-11-27T10:00:00.000Z';
const EXPIRES = '2026-12-04T10:00:00.000Z';
const SIGNED_IN = '2026-11-28T08:15:00.000Z';

function userPageApi(item: Parameters<typeof userShow>[0] = {}, overrides: Parameters<typeof mockTrpc>[0] = {}) {
  return mockTrpc({
    'auth.me': ok(sessionOf('all')),
    ...NO_HISTORY,
    ...NO_SECURITY_ANSWERS,
    'users.show': ok(userShow(item)),
    ...overrides,
  });
}

async function findCard() {
  return screen.findByRole('region', { name: t.title });
}

describe('user page: sign-in access', { timeout: 20_000 }, () => {
  it('shows a pending invitation with when it was sent and until when its link works', async () => {
    userPageApi({ invitation: { state: 'pending', sent_at: SENT, expires_at: EXPIRES } });
    renderApp('/users/42');

    const card = await findCard();
    expect(within(card).getByText(t.states.pending)).toBeTruthy();
    expect(within(card).getByText(en.common.dateTime(SENT))).toBeTruthy();
    expect(within(card).getByText(t.expires)).toBeTruthy();
    expect(within(card).getByText(en.common.dateTime(EXPIRES))).toBeTruthy();
    expect(within(card).getByRole('button', { name: t.resend })).toBeTruthy();
  });

  it('offers no new invitation once it was accepted, only a reset link', async () => {
    userPageApi({ invitation: { state: 'accepted', sent_at: SENT, expires_at: EXPIRES }, last_sign_in_at: SIGNED_IN });
    renderApp('/users/42');

    const card = await findCard();
    expect(within(card).getByText(t.states.accepted)).toBeTruthy();
    expect(within(card).getByText(en.common.dateTime(SIGNED_IN))).toBeTruthy();
    expect(within(card).queryByText(t.expires)).toBeNull();
    expect(within(card).queryByRole('button', { name: t.resend })).toBeNull();
    expect(within(card).queryByRole('button', { name: t.invite })).toBeNull();
    expect(within(card).getByRole('button', { name: t.sendReset })).toBeTruthy();
  });

  it('offers an account that signed in without an invitation a reset link, not an invitation', async () => {
    // An imported password: never invited, signed in; the server refuses an invitation (ALREADY_SIGNED_IN).
    userPageApi({ invitation: null, last_sign_in_at: SIGNED_IN });
    renderApp('/users/42');

    const card = await findCard();
    expect(within(card).getByText(t.neverInvited)).toBeTruthy();
    expect(within(card).getByText(t.lastSignIn)).toBeTruthy();
    expect(within(card).getByText(en.common.dateTime(SIGNED_IN))).toBeTruthy();
    expect(within(card).queryByRole('button', { name: t.invite })).toBeNull();
    expect(within(card).queryByRole('button', { name: t.resend })).toBeNull();
    expect(within(card).getByRole('button', { name: t.sendReset })).toBeTruthy();
  });

  it('offers neither to an inactive account, as the server says', async () => {
    userPageApi({ invitation: null, is_active: false });
    renderApp('/users/42');

    const card = await findCard();
    expect(within(card).getByText(t.neverSignedIn)).toBeTruthy();
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('invites after a confirmation, says so in a toast and shows the new state', async () => {
    const api = userPageApi(
      { invitation: null },
      { 'invitations.send': ok({ invitation: { user_id: 42, expires_at: EXPIRES, sent: true } }) },
    );
    renderApp('/users/42');
    const card = await findCard();
    expect(within(card).getByText(t.neverInvited)).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: t.invite }));
    const dialog = await screen.findByRole('dialog', { name: t.inviteTitle('Ann Lee') });
    expect(within(dialog).getByText(t.inviteText('ann@example.com'))).toBeTruthy();
    api.set('users.show', ok(userShow({ invitation: { state: 'pending', sent_at: SENT, expires_at: EXPIRES } })));
    fireEvent.click(within(dialog).getByRole('button', { name: t.invite }));

    expect(await screen.findByText(t.invited('Ann Lee'), {}, { timeout: 10_000 })).toBeTruthy();
    expect(api.callsTo('invitations.send')).toEqual([{ id: 42 }]);
    expect(await within(card).findByText(t.states.pending)).toBeTruthy();
  });

  it('shows the link with a copy button when the server has no mail to send it with', async () => {
    const url = 'https://admin.example.com/reset-password/tok_123';
    userPageApi(
      { invitation: { state: 'accepted', sent_at: SENT, expires_at: EXPIRES }, last_sign_in_at: SIGNED_IN },
      { 'passwordReset.send': ok({ reset: { user_id: 42, expires_at: EXPIRES, sent: false }, url }) },
    );
    renderApp('/users/42');

    fireEvent.click(within(await findCard()).getByRole('button', { name: t.sendReset }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: t.resetTitle('Ann Lee') })).getByRole('button', {
        name: t.sendReset,
      }),
    );

    const dialog = await screen.findByRole('dialog', { name: t.link.resetTitle('Ann Lee') });
    expect((within(dialog).getByLabelText(t.link.label) as HTMLInputElement).value).toBe(url);
    expect(within(dialog).getByRole('button', { name: t.link.copy })).toBeTruthy();
    expect(within(dialog).getByText(t.link.expires(en.common.dateTime(EXPIRES)))).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: t.link.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByDisplayValue(url)).toBeNull();
  });

  it('tells the server’s reason when it refuses (the account changed since the page was read)', async () => {
    const message = 'This user has already signed in: they need no invitation. Send a password reset instead.';
    userPageApi(
      { invitation: { state: 'expired', sent_at: SENT, expires_at: EXPIRES } },
      { 'invitations.send': fail({ message, code: 'ALREADY_SIGNED_IN', httpStatus: 422 }) },
    );
    renderApp('/users/42');
    const card = await findCard();
    expect(within(card).getByText(t.states.expired)).toBeTruthy();
    expect(within(card).getByText(t.expired)).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: t.resend }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: t.resendTitle('Ann Lee') })).getByRole('button', {
        name: t.resend,
      }),
    );

    expect(await screen.findByText(message, {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('offers neither action when the server says the viewer may not change this user', async () => {
    const item = { invitation: { state: 'pending' as const, sent_at: SENT, expires_at: EXPIRES } };
    const base = userShow(item).item;
    const outranked = { allowed: false, code: 'OUTRANKED' as const, message: 'Outranked.' };
    userPageApi({
      ...item,
      actions: { ...showActionsFor(base, 'all'), invite: outranked, sendPasswordReset: outranked },
    });
    renderApp('/users/42');

    const card = await findCard();
    expect(within(card).getByText(t.states.pending)).toBeTruthy();
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('shows a viewer the facts and no action', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view'])),
      'users.show': ok(userShow({ invitation: null }, ['users.view'])),
    });
    renderApp('/users/42');

    const card = await findCard();
    expect(within(card).getByText(t.neverInvited)).toBeTruthy();
    expect(within(card).getByText(t.neverSignedIn)).toBeTruthy();
    expect(within(card).queryByRole('button')).toBeNull();
  });
});
