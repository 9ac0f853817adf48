import { auditMessages } from './audit-messages';
import { formatDate } from './dates';
import { jobsMessages } from './jobs-messages';
import { permissionMessages } from './permission-messages';
import { rolesMessages } from './roles-messages';
import { sessionsMessages } from './sessions-messages';
import { tokensMessages } from './tokens-messages';
import { webhooksMessages } from './webhooks-messages';
import { usersListMessages } from './users-list-messages';
import { userPagesMessages } from './user-pages-messages';

/**
 * Every user-facing string of the SPA. Components read from here (via `useMessages`), never
 * inline English; a string that depends on a value is a function, so its parts stay typed.
 */
export const en = {
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
  },
  auth: {
    title: 'Sign in',
    subtitle: 'Use your administrator account to continue.',
    email: 'E-mail',
    emailPlaceholder: 'you@example.com',
    password: 'Password',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
    submit: 'Sign in',
    submitting: 'Signing in…',
    failedTitle: 'Couldn’t sign you in',
    footnote: 'Sign-ins are rate-limited and recorded in the audit log.',
    signedInTitle: 'Signed in',
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
  permissions: permissionMessages,
  ...userPagesMessages,
  role: {
    loading: 'Loading role…',
    notFoundTitle: 'Role not found',
    notFoundDescription: 'This role does not exist or has been removed.',
    errorTitle: 'This role couldn’t be loaded',
    guard: (guard: string) => `Guard: ${guard}`,
    permissionsTitle: 'Permissions',
    permissionCount: (count: number) => (count === 1 ? '1 permission' : `${count} permissions`),
    permissionsOf: (granted: number, known: number) => `Grants ${granted} of ${known} permissions.`,
    granted: 'Granted',
    notGranted: 'Not granted',
    empty: 'This role grants no permissions.',
  },
  theme: {
    label: 'Theme',
    light: 'Light',
    dark: 'Dark',
    system: 'System',
  },
  home: {
    title: 'Overview',
    subtitle: 'Health of the service behind this console.',
  },
  status: {
    title: 'Service status',
    description: 'Live readiness of the API and its database.',
    loading: 'Checking service status…',
    operational: 'Operational',
    degraded: 'Degraded',
    checking: 'Checking',
    api: 'API',
    apiVersion: (version: string) => `Version ${version}`,
    apiReachable: 'Responding',
    database: 'Database',
    databaseReachable: 'Reachable',
    databaseUnreachable: 'Unreachable',
    lastChecked: (time: string) => `Last checked at ${time}`,
    refresh: 'Refresh',
    errorTitle: 'Service status unavailable',
    databaseErrorTitle: 'The database is unreachable',
    retry: 'Retry',
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
  roles: rolesMessages,
  audit: auditMessages,
  tokens: tokensMessages,
  sessions: sessionsMessages,
  webhooks: webhooksMessages,
  jobs: jobsMessages,
  routeError: {
    title: 'This page failed to load',
    description: 'An unexpected error stopped this page from rendering. Reload to try again.',
    reload: 'Reload page',
  },
};

export type Messages = typeof en;
