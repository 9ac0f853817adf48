import { pageMessages } from './messages';
import { listPaginationStrings } from './list-strings';
import { relativeTime } from './dates';

/** Sessions (signed-in devices), a user's sign-in history, and the account pages' navigation. */
export const sessionsMessages = {
  title: 'Sessions',
  subtitle: 'Where your account is signed in. Sign out of any device you don’t recognise.',
  device: (client: string | null, os: string | null) =>
    client && os ? `${client} on ${os}` : (client ?? os ?? 'Unknown device'),
  rawUserAgent: (ua: string | null) => ua ?? 'No user agent was recorded',
  list: {
    label: 'Sessions',
    loading: 'Loading sessions…',
    errorTitle: 'The sessions could not be loaded',
    retry: 'Try again',
    thisDevice: 'This device',
    ip: 'IP address',
    noIp: 'Not recorded',
    signedIn: 'Signed in',
    lastActive: 'Last active',
    ago: (iso: string) => relativeTime(iso, 'en'),
    signOut: 'Sign out',
    /** Read after "Sign out" by assistive tech, so each row's button names its device. */
    signOutDevice: (device: string) => `of ${device}`,
    empty: 'No sessions.',
  },
  others: {
    button: 'Sign out all other sessions',
    title: 'Sign out everywhere else?',
    description: 'Every other browser and device signed in to your account is signed out at once. This one stays.',
    confirm: 'Sign out other sessions',
    cancel: 'Cancel',
    done: (count: number) =>
      count === 0
        ? 'No other session was open'
        : count === 1
          ? '1 other session ended'
          : `${count} other sessions ended`,
    none: 'This is the only device signed in.',
  },
  ended: 'The session was ended',
  user: {
    title: 'Sessions',
    description: 'Browsers and devices where this user is signed in.',
    empty: 'This user is not signed in anywhere.',
    end: 'End session',
    /** Read after "End session" by assistive tech. */
    endDevice: (device: string) => `on ${device}`,
    endAll: 'End all sessions',
    endTitle: (device: string) => `End the session on ${device}?`,
    endDescription: 'That browser is signed out at once; the user can sign in again.',
    endAllTitle: (name: string) => `End all of ${name}’s sessions?`,
    endAllDescription: 'Every browser and device of this user is signed out at once; they can sign in again.',
    endAllConfirm: 'End all sessions',
    cancel: 'Cancel',
    endedAll: (count: number) => (count === 1 ? '1 session ended' : `${count} sessions ended`),
    outrankedTitle: 'You can’t manage this user’s sessions',
  },
  signIns: {
    title: 'Sign-in history',
    description: 'Successful and failed sign-ins to this account, newest first.',
    label: 'Sign-ins',
    loading: 'Loading sign-ins…',
    empty: 'No sign-in recorded for this user.',
    error: 'The sign-in history could not be loaded.',
    retry: 'Try again',
    succeeded: 'Signed in',
    failed: 'Failed',
    when: 'When',
    outcome: 'Outcome',
    ip: 'IP address',
    device: 'Device',
    none: '—',
    pagination: listPaginationStrings('No sign-ins to show'),
  },
};

/** The sessions pages' words (`m.sessions`) with the shell's. */
export const useSessionsMessages = pageMessages({ sessions: sessionsMessages });
