import { pageMessages } from './messages';

/** Self-service (`/account`: name, password) and the second factor (`/account/two-factor`). */
export const accountMessages = {
  profile: {
    title: 'Your details',
    name: 'Name',
    nameRequired: 'Enter your name.',
    save: 'Save name',
    saved: 'Your name was saved.',
  },
  password: {
    title: 'Password',
    description: 'Changing your password signs you out everywhere else: your other sessions end.',
    current: 'Current password',
    next: 'New password',
    confirm: 'Repeat the new password',
    save: 'Change password',
    saved: 'Your password was changed. Your other sessions have ended.',
    required: 'Enter your current password.',
    newRequired: 'Enter a new password.',
    mismatch: 'The two new passwords differ.',
  },
  twoFactor: {
    nav: 'Two-factor authentication',
    title: 'Two-factor authentication',
    subtitle: 'A code from an app on your phone, asked for after your password.',
    onTitle: 'Two-factor authentication is on',
    onDescription: 'Signing in asks for a code from your authenticator app, or one of your recovery codes.',
    offTitle: 'Two-factor authentication is off',
    offDescription: 'Add a second step to signing in: a six-digit code from an authenticator app.',
    heldTitle: 'Set up two-factor authentication to continue',
    heldDescription:
      'One of your roles requires a second factor. Until you set one up, the rest of the console stays closed to you.',
    requiredBadge: 'Required by your role',
    requiredNote: 'One of your roles requires a second factor, so it cannot be turned off.',
    start: 'Set up two-factor authentication',
    starting: 'Preparing…',
    scanTitle: '1. Scan this code with your authenticator app',
    scanDescription: 'Any TOTP app works (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…).',
    qrLabel: 'QR code to add this account to an authenticator app',
    manualLabel: 'Or type this key into the app',
    confirmTitle: '2. Enter the code the app shows',
    code: 'Six-digit code',
    codeRequired: 'Enter the six digits your app shows.',
    confirm: 'Turn on',
    cancel: 'Cancel',
    recoveryTitle: 'Save your recovery codes',
    recoveryDescription:
      'Each code signs you in once if you lose your phone. They are shown only now: copy or download them and keep them somewhere safe.',
    recoveryListLabel: 'Recovery codes',
    copy: 'Copy codes',
    copied: 'Copied',
    copyFailed: 'Copying failed: select the codes and copy them by hand.',
    download: 'Download',
    downloadName: 'recovery-codes.txt',
    done: 'I have saved them',
    enabled: 'Two-factor authentication is on.',
    disableTitle: 'Turn off two-factor authentication',
    disableDescription: 'Enter a current code from your app to turn the second factor off.',
    disable: 'Turn off',
    disabled: 'Two-factor authentication is off.',
  },
  /** A user's page, for an administrator: the user's second factor and its reset. */
  userTwoFactor: {
    title: 'Two-factor authentication',
    on: 'On: signing in asks for a code from an authenticator app.',
    off: 'Off: signing in takes the password only.',
    required: 'One of their roles requires a second factor.',
    requiredMissing:
      'One of their roles requires a second factor: at their next sign-in they must set one up before anything else.',
    reset: 'Reset two-factor',
    confirmTitle: (name: string) => `Reset ${name}’s two-factor authentication?`,
    confirmDescription:
      'Their authenticator app and recovery codes stop working. If one of their roles requires a second factor, they set up a new one at their next sign-in.',
    done: (name: string) => `${name}’s two-factor authentication was reset.`,
  },
};

/** The account pages' words (`m.profile`, `m.password`, `m.twoFactor`) with the shell's. */
export const useAccountMessages = pageMessages(accountMessages);
