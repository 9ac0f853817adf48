import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountMessages } from '../../i18n/account-messages';
import { renderApp } from '../../test/render-app';
import { mockRest, problem, restOk } from '../../test/rest-mock';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const m = accountMessages;

describe('account page: one’s own name and password', () => {
  it('saves a new name without users.update and shows it once the session is re-read', async () => {
    const trpc = mockTrpc({ 'auth.me': ok(sessionOf([], { name: 'Rita Reader' })) });
    const api = mockRest({ 'PUT /account': restOk({ item: { id: 1, name: 'Rita Rider' } }) });
    renderApp('/account');

    const name = await screen.findByLabelText(m.profile.name);
    expect((name as HTMLInputElement).value).toBe('Rita Reader');
    fireEvent.change(name, { target: { value: '  Rita Rider ' } });
    trpc.set('auth.me', ok(sessionOf([], { name: 'Rita Rider' })));
    fireEvent.click(screen.getByRole('button', { name: m.profile.save }));

    await waitFor(() => expect(api.bodiesOf('PUT /account')).toEqual([{ name: 'Rita Rider' }]));
    expect(await screen.findByText('Rita Rider', { selector: 'p' })).toBeTruthy();
  });

  it('shows the server’s field error next to the name', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf([])) });
    mockRest({
      'PUT /account': problem(422, 'VALIDATION_FAILED', 'The input is invalid.', {
        name: ['The name may hold at most 255 characters.'],
      }),
    });
    renderApp('/account');

    fireEvent.change(await screen.findByLabelText(m.profile.name), { target: { value: 'x'.repeat(300) } });
    fireEvent.click(screen.getByRole('button', { name: m.profile.save }));

    expect(await screen.findByText('The name may hold at most 255 characters.')).toBeTruthy();
  });

  it('changes the password with the current one, and says the other sessions ended', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf([])) });
    const api = mockRest({ 'PUT /account/password': restOk() });
    renderApp('/account');

    expect(await screen.findByText(m.password.description)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(m.password.current), { target: { value: 'old-password-1' } });
    fireEvent.change(screen.getByLabelText(m.password.next), { target: { value: 'new-password-22' } });
    fireEvent.change(screen.getByLabelText(m.password.confirm), { target: { value: 'new-password-22' } });
    fireEvent.click(screen.getByRole('button', { name: m.password.save }));

    await waitFor(() =>
      expect(api.bodiesOf('PUT /account/password')).toEqual([
        { current_password: 'old-password-1', password: 'new-password-22', password_confirmation: 'new-password-22' },
      ]),
    );
    expect(await screen.findByText(m.password.saved)).toBeTruthy();
    expect((screen.getByLabelText(m.password.current) as HTMLInputElement).value).toBe('');
  });

  it('puts a wrong current password’s refusal on that field and sends nothing when the two differ', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf([])) });
    const api = mockRest({
      'PUT /account/password': problem(422, 'VALIDATION_FAILED', 'The input is invalid.', {
        current_password: ['The current password is incorrect.'],
      }),
    });
    renderApp('/account');

    fireEvent.change(await screen.findByLabelText(m.password.current), { target: { value: 'guess' } });
    fireEvent.change(screen.getByLabelText(m.password.next), { target: { value: 'new-password-22' } });
    fireEvent.change(screen.getByLabelText(m.password.confirm), { target: { value: 'new-password-23' } });
    fireEvent.click(screen.getByRole('button', { name: m.password.save }));
    expect(await screen.findByText(m.password.mismatch)).toBeTruthy();
    expect(api.calls).toHaveLength(0);

    fireEvent.change(screen.getByLabelText(m.password.confirm), { target: { value: 'new-password-22' } });
    fireEvent.click(screen.getByRole('button', { name: m.password.save }));
    const current = screen.getByLabelText(m.password.current);
    const field = current.closest('div')?.parentElement as HTMLElement;
    expect(await within(field).findByText('The current password is incorrect.')).toBeTruthy();
  });
});
