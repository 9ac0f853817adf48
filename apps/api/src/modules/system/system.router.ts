import { publicProcedure, rest, router } from '../../trpc/init.js';
import { health, ready } from './system.handlers.js';

export const systemRouter = router({
  health: publicProcedure.meta({ ...rest('GET', '/health'), public: true }).query(health),
  ready: publicProcedure.meta({ ...rest('GET', '/ready'), public: true }).query(ready),
});
