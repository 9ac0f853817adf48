import { systemRouter } from '../modules/system/system.router.js';
import { router } from './init.js';

export const appRouter = router({
  system: systemRouter,
});

export type AppRouter = typeof appRouter;
