import { publicProcedure, rest, router } from '../../trpc/init.js';
import { health, openApi, ready } from './system.handlers.js';

export const systemRouter = router({
  health: publicProcedure.meta({ ...rest('GET', '/health'), public: true }).query(health),
  ready: publicProcedure.meta({ ...rest('GET', '/ready', { problems: ['UNAVAILABLE'] }), public: true }).query(ready),
  openapi: publicProcedure
    .meta({ ...rest('GET', '/openapi.json', { summary: 'The OpenAPI 3.1 document of this API' }), public: true })
    .query(openApi),
});
