import { pageMessages } from './messages';

/** The sign-in page's and the account page's words (see `shell-messages.ts` for why apart). */
export const authMessages = {
  auth: {
    title: 'Sign in',
    subtitle: 'Use your administrator account to continue.',
    email: 'E-mail',
    emailPlaceholder: 'you@example.com',
    password: 'Password',
    submit: 'Sign in',
    submitting: 'Signing in…',
    failedTitle: 'Couldn’t sign you in',
    footnote: 'Sign-ins are rate-limited and recorded in the audit log.',
    signedInTitle: 'Signed in',
    forgotPassword: 'Forgot your password?',
  },
  account: {
    title: 'Your access',
    subtitle: 'What your account can do in this console.',
    permissionsTitle: 'Permissions',
    permissionsDescription: (count: number) =>
      count === 1 ? 'Your account holds 1 permission.' : `Your account holds ${count} permissions.`,
    noneTitle: 'No permissions yet',
    noneDescription:
      'Your account can sign in, but it has no permissions in this console. Ask an administrator to give you a role.',
    openUsers: 'Open users',
  },
};

/** The sign-in and account pages' words (`m.auth`, `m.account`) with the shell's. */
export const useAuthMessages = pageMessages(authMessages);
