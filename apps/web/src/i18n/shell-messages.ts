import { formatDate } from './dates';
import { jobsMessages } from './jobs-messages';
import { jobUndoMessages } from './job-undo-messages';
import { permissionMessages } from './permission-messages';
import { usersListMessages } from './users-list-messages';

/**
 * The words every route needs: the shell (layout, navigation, menus, errors), the users list
 * (where most sessions start) and the jobs indicator. Read through `useMessages`.
 *
 * A page loaded on first visit keeps its words in its own catalogue (`webhooks-messages.ts`, …),
 * read through its hook (`useWebhooksMessages`), so they travel with the page's lazy chunk: the
 * users list's JavaScript budget has no room for every page's strings.
 */
export const shellMessages = {
  app: {
    /** BCP 47 tag used to format dates and numbers in this catalogue's language. */
    locale: 'en',
    name: 'User administration',
    skipToContent: 'Skip to content',
    documentTitle: (page: string) => `${page} · User administration`,
  },
  nav: {
    label: 'Main',
    overview: 'Overview',
    users: 'Users',
    audit: 'Audit log',
    roles: 'Roles',
    webhooks: 'Webhooks',
    signIn: 'Sign-in',
    attributes: 'Attributes',
    status: 'Status',
    openMenu: 'Open navigation',
  },
  common: {
    back: 'Back',
    cancel: 'Cancel',
    retry: 'Try again',
    loading: 'Loading…',
    optional: 'Optional',
    dateTime: (iso: string) => formatDate(iso, 'dayTime', 'en'),
    forbiddenTitle: 'You don’t have access to this page',
    forbiddenDescription: (permission: string) =>
      `Your account needs the “${permission}” permission to open it. Ask an administrator if you need access.`,
    goHome: 'Go to the start page',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
    /** Who did something, when no signed-in person did (the command line, the system's own jobs). */
    system: 'System',
    erasedUser: (id: number) => `User #${id} (erased)`,
  },
  session: {
    loading: 'Loading your session…',
    errorTitle: 'Your session couldn’t be checked',
    expired: 'Your session has ended. Sign in again to continue.',
    signOut: 'Sign out',
    signingOut: 'Signing out…',
    signOutFailed: 'Signing out failed. Try again.',
  },
  userMenu: {
    signedInAs: 'Signed in as',
    access: 'Your access',
    signOut: 'Sign out',
    tokens: 'API tokens',
    sessions: 'Sessions',
    twoFactor: 'Two-factor',
    /** The account pages' own navigation (access, tokens, sessions). */
    accountNav: 'Your account',
  },
  permissions: permissionMessages,
  theme: {
    label: 'Theme',
    light: 'Light',
    dark: 'Dark',
    system: 'System',
  },
  errors: {
    network: 'The server could not be reached. Check your connection and try again.',
    unexpected: 'Something went wrong. Try again in a moment.',
  },
  notFound: {
    code: '404',
    title: 'Page not found',
    description: 'The page you are looking for does not exist or has moved.',
    backHome: 'Go to the start page',
  },
  usersList: usersListMessages,
  jobs: jobsMessages,
  jobUndo: jobUndoMessages,
  routeError: {
    title: 'This page failed to load',
    description: 'An unexpected error stopped this page from rendering. Reload to try again.',
    reload: 'Reload page',
  },
};
