import { auditRouter } from '../modules/audit/audit.router.js';
import { authRouter } from '../modules/auth/auth.router.js';
import { rolesRouter } from '../modules/roles/roles.router.js';
import { documentRouter } from '../modules/system/system.handlers.js';
import { systemRouter } from '../modules/system/system.router.js';
import { usersRouter } from '../modules/users/users.router.js';
import { router } from './init.js';

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  users: usersRouter,
  roles: rolesRouter,
  audit: auditRouter,
});

documentRouter(appRouter);

export type AppRouter = typeof appRouter;
