import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { signInMessages } from '../../i18n/sign-in-messages';
import { renderApp } from '../../test/render-app';
import { mockRest, problem } from '../../test/rest-mock';
import { fail, mockTrpc, ok, sessionOf, UNAUTHENTICATED } from '../../test/trpc-mock';

const m = signInMessages;

async function signIn() {
  fireEvent.change(await screen.findByLabelText(en.auth.email), { target: { value: 'rita@example.com' } });
  fireEvent.change(screen.getByLabelText(en.auth.password), { target: { value: 'rita-password-1' } });
  fireEvent.click(screen.getByRole('button', { name: en.auth.submit }));
}

const CODE_ASKED = ok({ two_factor_required: true });

describe('sign-in with a second factor', () => {
  it('asks for the code after the right password, then signs in and goes on', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED), 'auth.login': CODE_ASKED, 'users.list': 'pending' });
    const api = mockRest({ 'POST /auth/two-factor': { status: 200, body: sessionOf('all') } });
    const { router } = renderApp('/login');

    await signIn();
    const code = await screen.findByLabelText(m.codeStep.code);
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(router.state.location.pathname).toBe('/login');

    fireEvent.change(code, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: m.codeStep.submit }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(api.bodiesOf('POST /auth/two-factor')).toEqual([{ code: '123456' }]);
  });

  it('says a wrong code was refused, clears it, and shows the rate limit when it comes', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED), 'auth.login': CODE_ASKED });
    let tries = 0;
    mockRest({
      'POST /auth/two-factor': () =>
        ++tries === 1
          ? problem(422, 'VALIDATION_FAILED', 'The code is not valid.')
          : problem(429, 'RATE_LIMITED', 'Too many codes were tried. Try again in 15 minutes.'),
    });
    renderApp('/login');

    await signIn();
    fireEvent.change(await screen.findByLabelText(m.codeStep.code), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: m.codeStep.submit }));
    expect(within(await screen.findByRole('alert')).getByText('The code is not valid.')).toBeTruthy();
    expect((screen.getByLabelText(m.codeStep.code) as HTMLInputElement).value).toBe('');

    fireEvent.change(screen.getByLabelText(m.codeStep.code), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: m.codeStep.submit }));
    expect(await screen.findByText('Too many codes were tried. Try again in 15 minutes.')).toBeTruthy();
  }, 15_000);

  it('accepts a recovery code instead of the app’s code', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED), 'auth.login': CODE_ASKED });
    const api = mockRest({ 'POST /auth/two-factor': { status: 200, body: sessionOf([]) } });
    const { router } = renderApp('/login');

    await signIn();
    fireEvent.click(await screen.findByRole('button', { name: m.codeStep.useRecovery }));
    fireEvent.change(screen.getByLabelText(m.codeStep.recoveryCode), { target: { value: ' abcde-fghij ' } });
    fireEvent.click(screen.getByRole('button', { name: m.codeStep.submit }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
    expect(api.bodiesOf('POST /auth/two-factor')).toEqual([{ recovery_code: 'abcde-fghij' }]);
  });

  it('offers to start over when the first step has expired', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED), 'auth.login': CODE_ASKED });
    mockRest({
      'POST /auth/two-factor': problem(401, 'TWO_FACTOR_CHALLENGE_EXPIRED', 'This sign-in has expired.'),
    });
    renderApp('/login');

    await signIn();
    fireEvent.change(await screen.findByLabelText(m.codeStep.code), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: m.codeStep.submit }));
    expect(await screen.findByText('This sign-in has expired.')).toBeTruthy();

    fireEvent.click(screen.getAllByRole('button', { name: m.codeStep.startOver })[0]!);
    expect(await screen.findByLabelText(en.auth.password)).toBeTruthy();
    expect((screen.getByLabelText(en.auth.email) as HTMLInputElement).value).toBe('rita@example.com');
  });
});

describe('single sign-on on the sign-in page', () => {
  it('offers a button per provider that leads to the API’s start route', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED) });
    mockRest({ 'GET /auth/providers/public': { status: 200, body: [{ id: 3, name: 'Acme SSO' }] } });
    renderApp('/login');

    const link = await screen.findByRole('link', { name: m.sso.signInWith('Acme SSO') });
    expect(link.getAttribute('href')).toBe('/api/auth/sso/3/start');
  });

  it('says why single sign-on sent the person back, and words unknown codes too', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED) });
    renderApp('/login?error=sso_domain');
    expect(await screen.findByText(m.sso.errors.sso_domain!)).toBeTruthy();
  });

  it('words an unknown refusal code plainly', async () => {
    mockTrpc({ 'auth.me': fail(UNAUTHENTICATED) });
    renderApp('/login?error=constructor');
    expect(await screen.findByText(m.sso.unknownError)).toBeTruthy();
  });
});
