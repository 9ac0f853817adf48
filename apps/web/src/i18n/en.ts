import { auditMessages } from './audit-messages';
import { authMessages } from './auth-messages';
import { linksMessages } from './links-messages';
import { userAccessMessages } from './user-access-messages';
import { roleMessages, rolesMessages } from './roles-messages';
import { sessionsMessages } from './sessions-messages';
import { shellMessages } from './shell-messages';
import { statusMessages } from './status-messages';
import { tokensMessages } from './tokens-messages';
import { userPagesMessages } from './user-pages-messages';
import { webhooksMessages } from './webhooks-messages';

/**
 * Every user-facing string of the SPA in one object, for the tests (component and browser) that
 * name what a user reads. The app never imports it: it reads the shell's words with `useMessages`
 * and a lazy page's with its own hook (`useWebhooksMessages`, …), so each page's strings load with
 * that page. A string that depends on a value is a function, so its parts stay typed.
 */
export const en = {
  ...shellMessages,
  ...authMessages,
  ...linksMessages,
  ...userAccessMessages,
  ...userPagesMessages,
  ...statusMessages,
  roles: rolesMessages,
  role: roleMessages,
  audit: auditMessages,
  tokens: tokensMessages,
  sessions: sessionsMessages,
  webhooks: webhooksMessages,
};
