import { pageMessages } from './messages';

/** The sign-in page's second step (the code), its single sign-on buttons and their refusals. */
export const signInMessages = {
  codeStep: {
    title: 'Two-factor authentication',
    description: 'Enter the six-digit code your authenticator app shows for this account.',
    recoveryDescription: 'Enter one of the recovery codes you saved when you set up two-factor authentication.',
    code: 'Six-digit code',
    codeRequired: 'Enter the six digits your app shows.',
    recoveryCode: 'Recovery code',
    recoveryRequired: 'Enter one of your recovery codes.',
    useRecovery: 'Use a recovery code instead',
    useApp: 'Use a code from the app instead',
    submit: 'Verify',
    submitting: 'Verifying…',
    failedTitle: 'That code didn’t work',
    startOver: 'Back to e-mail and password',
  },
  sso: {
    or: 'or',
    signInWith: (name: string) => `Sign in with ${name}`,
    failedTitle: 'Single sign-on didn’t sign you in',
    errors: {
      sso_state: 'The sign-in could not be matched to this browser (it took too long, or began elsewhere). Try again.',
      sso_token: 'The identity provider’s answer failed a security check, so it was refused. Try again.',
      sso_provider: 'The identity provider could not be reached or refused the sign-in. Try again later.',
      sso_email_unverified:
        'The identity provider has not verified your e-mail address, so it cannot sign you in here.',
      sso_domain: 'Your e-mail address’s domain is not allowed to sign in with this provider.',
      sso_inactive: 'Your account is not active. Ask an administrator to activate it.',
      sso_no_account: 'There is no account here for your e-mail address. Ask an administrator to create one.',
      sso_rate_limited: 'Too many sign-ins were started from your network. Wait a few minutes, then try again.',
    } as Record<string, string>,
    unknownError: 'Single sign-on did not sign you in. Try again, or sign in with your password.',
  },
};

/** The sign-in page's own words for these steps (`m.codeStep`, `m.sso`) with the shell's. */
export const useSignInMessages = pageMessages(signInMessages);
