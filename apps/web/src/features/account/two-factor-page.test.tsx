import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountMessages } from '../../i18n/account-messages';
import { renderApp } from '../../test/render-app';
import { mockRest, problem, restOk } from '../../test/rest-mock';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const m = accountMessages.twoFactor;
const OTPAUTH =
  'otpauth://totp/User%20administration:rita%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=User%20administration';
const CODES = Array.from({ length: 10 }, (_, i) => `code-${i}-abcd`);

const withTwoFactor = (enrolled: boolean, required = false, granted: Parameters<typeof sessionOf>[0] = []) => ({
  ...sessionOf(granted, { name: 'Rita Reader' }),
  two_factor: { enrolled, required },
});

describe('two-factor page', () => {
  it('enrols: QR code and key from the server, a code to confirm, the ten recovery codes shown once', async () => {
    const trpc = mockTrpc({ 'auth.me': ok(withTwoFactor(false)) });
    const api = mockRest({
      'POST /account/two-factor': restOk({ secret: 'JBSWY3DPEHPK3PXP', otpauth_url: OTPAUTH }),
      'POST /account/two-factor/confirm': restOk({ recovery_codes: CODES }),
    });
    renderApp('/account/two-factor');

    expect(await screen.findByRole('heading', { name: m.offTitle })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: m.start }));

    const qr = (await screen.findByRole('img', { name: m.qrLabel })) as HTMLImageElement;
    expect(qr.src).toMatch(/^data:image\/svg\+xml/);
    expect((screen.getByLabelText(m.manualLabel) as HTMLInputElement).value).toBe('JBSWY3DPEHPK3PXP');
    const code = screen.getByLabelText(m.code);
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');

    fireEvent.change(code, { target: { value: '123 456' } });
    trpc.set('auth.me', ok(withTwoFactor(true)));
    fireEvent.click(screen.getByRole('button', { name: m.confirm }));

    const list = await screen.findByRole('list', { name: m.recoveryListLabel });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(api.bodiesOf('POST /account/two-factor/confirm')).toEqual([{ code: '123456' }]);
    expect(screen.getByRole('button', { name: m.download })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: m.done }));
    expect(await screen.findByRole('heading', { name: m.onTitle })).toBeTruthy();
    expect(screen.queryByText(CODES[0]!)).toBeNull();
    // Five steps through a lazy page: more than the default 5 s on a busy machine.
  }, 20_000);

  it('says a wrong confirmation code was refused and asks again', async () => {
    mockTrpc({ 'auth.me': ok(withTwoFactor(false)) });
    mockRest({
      'POST /account/two-factor': restOk({ secret: 'JBSWY3DPEHPK3PXP', otpauth_url: OTPAUTH }),
      'POST /account/two-factor/confirm': problem(422, 'INVALID_CODE', 'The code is not valid. Try the current one.'),
    });
    renderApp('/account/two-factor');

    fireEvent.click(await screen.findByRole('button', { name: m.start }));
    fireEvent.change(await screen.findByLabelText(m.code), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: m.confirm }));

    expect(await screen.findByText('The code is not valid. Try the current one.')).toBeTruthy();
    expect((screen.getByLabelText(m.code) as HTMLInputElement).value).toBe('');
  });

  it('turns the second factor off with a current code', async () => {
    const trpc = mockTrpc({ 'auth.me': ok(withTwoFactor(true)) });
    const api = mockRest({ 'DELETE /account/two-factor': { status: 204 } });
    renderApp('/account/two-factor');

    expect(await screen.findByRole('heading', { name: m.onTitle })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(m.code), { target: { value: '654321' } });
    trpc.set('auth.me', ok(withTwoFactor(false)));
    fireEvent.click(screen.getByRole('button', { name: m.disable }));

    expect(await screen.findByRole('heading', { name: m.offTitle })).toBeTruthy();
    expect(api.bodiesOf('DELETE /account/two-factor')).toEqual([{ code: '654321' }]);
  });

  it('does not offer to turn off a factor the person’s role requires', async () => {
    mockTrpc({ 'auth.me': ok(withTwoFactor(true, true)) });
    renderApp('/account/two-factor');

    expect(await screen.findByText(m.requiredNote)).toBeTruthy();
    expect(screen.queryByRole('button', { name: m.disable })).toBeNull();
  });
});

describe('held at enrolment', () => {
  it('takes a member whose role requires a second factor from any page to enrolment, with the reason', async () => {
    mockTrpc({ 'auth.me': ok(withTwoFactor(false, true, ['users.view'])) });
    const { router } = renderApp('/users');

    await waitFor(() => expect(router.state.location.pathname).toBe('/account/two-factor'));
    expect(await screen.findByText(m.heldTitle)).toBeTruthy();
    expect(screen.getByText(m.heldDescription)).toBeTruthy();
  });

  it('re-reads the session when the API answers TWO_FACTOR_ENROLMENT_REQUIRED, and goes to enrolment', async () => {
    const trpc = mockTrpc({
      'auth.me': ok(withTwoFactor(false, false, ['users.view'])),
      'users.list': fail({
        message: 'Set up two-factor authentication to continue.',
        code: 'TWO_FACTOR_ENROLMENT_REQUIRED',
        httpStatus: 403,
      }),
    });
    trpc.set('users.list', () => {
      trpc.set('auth.me', ok(withTwoFactor(false, true, ['users.view'])));
      return fail({
        message: 'Set up two-factor authentication.',
        code: 'TWO_FACTOR_ENROLMENT_REQUIRED',
        httpStatus: 403,
      });
    });
    const { router } = renderApp('/users');

    await waitFor(() => expect(router.state.location.pathname).toBe('/account/two-factor'));
    expect(await screen.findByText(m.heldTitle)).toBeTruthy();
  });
});
