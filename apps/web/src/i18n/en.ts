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
    backHome: 'Back to overview',
  },
  routeError: {
    title: 'This page failed to load',
    description: 'An unexpected error stopped this page from rendering. Reload to try again.',
    reload: 'Reload page',
  },
};

export type Messages = typeof en;
