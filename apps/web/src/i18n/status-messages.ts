import { pageMessages } from './messages';

/** The status page's words: the overview and the service status card. */
export const statusMessages = {
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
};

/** The status page's words (`m.home`, `m.status`) with the shell's. */
export const useStatusMessages = pageMessages(statusMessages);
