import { authRouter } from '../modules/auth/auth.router.js';
import { systemRouter } from '../modules/system/system.router.js';
import { router } from './init.js';

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
});

export type AppRouter = typeof appRouter;
