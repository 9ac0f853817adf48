import { pageMessages } from './messages';

/**
 * The pages a person reaches without a session, from the sign-in page or a mail's link: "forgot
 * password", choosing a password through an invitation or a reset link, and the page a spent link
 * shows. Apart from the sign-in page's words so each page's chunk carries only its own.
 */
export const linksMessages = {
  forgot: {
    title: 'Reset your password',
    subtitle: 'Enter the e-mail address of your account and we will send you a link to choose a new password.',
    email: 'E-mail',
    submit: 'Send the link',
    submitting: 'Sending…',
    sentTitle: 'Check your inbox',
    // Said whatever the address: whether an account exists is not this page's to reveal.
    sent: (email: string) =>
      `If an account exists for ${email}, we have sent it a link to choose a new password. The link works once and for a limited time. Nothing arrived? Check your spam folder, or ask an administrator.`,
    again: 'Use another address',
    failedTitle: 'The link couldn’t be sent',
    rateLimitedTitle: 'Too many requests',
    backToSignIn: 'Back to sign-in',
  },
  linkPassword: {
    inviteTitle: 'Welcome! Choose your password',
    inviteSubtitle: 'You have been invited to this console. Choose a password to finish setting up your account.',
    inviteSubmit: 'Set password and sign in',
    resetTitle: 'Choose a new password',
    resetSubtitle: 'Your new password replaces the old one, and signs you out everywhere else.',
    resetSubmit: 'Set new password',
    submitting: 'Saving…',
    password: 'New password',
    passwordHint: 'At least 8 characters.',
    confirmation: 'Repeat the password',
    failedTitle: 'Your password couldn’t be saved',
    welcome: (name: string) => `Welcome, ${name}. Your account is ready.`,
    resetDone: 'Your password has been changed. Sign in with it.',
  },
  spentLink: {
    title: 'This link can’t be used',
    description:
      'This link has expired or was already used, or it was replaced by a newer one. For your safety, a link works once and for a limited time.',
    inviteNext:
      'Ask the administrator who invited you to send a new invitation. If you already chose a password, sign in.',
    resetNext: 'Ask for a new link: it replaces this one.',
    requestNew: 'Send me a new link',
    signIn: 'Go to sign-in',
  },
};

/** The "forgot password" and link pages' words (`m.forgot`, `m.linkPassword`, `m.spentLink`) with the shell's. */
export const useLinksMessages = pageMessages(linksMessages);
