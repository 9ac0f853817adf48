import { auditRouter } from '../modules/audit/audit.router.js';
import { authRouter } from '../modules/auth/auth.router.js';
import { rolesRouter } from '../modules/roles/roles.router.js';
import { sessionsRouter } from '../modules/sessions/sessions.router.js';
import { documentRouter } from '../modules/system/system.handlers.js';
import { systemRouter } from '../modules/system/system.router.js';
import { tokensRouter } from '../modules/tokens/tokens.router.js';
import { usersRouter } from '../modules/users/users.router.js';
import { webhooksRouter } from '../modules/webhooks/webhooks.router.js';
import { router } from './init.js';

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  users: usersRouter,
  roles: rolesRouter,
  audit: auditRouter,
  tokens: tokensRouter,
  sessions: sessionsRouter,
  webhooks: webhooksRouter,
});

documentRouter(appRouter);

export type AppRouter = typeof appRouter;
