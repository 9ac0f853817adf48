import { publicProcedure, rest, router } from '../../trpc/init.js';
import { health, ready } from './system.handlers.js';

/**
 * `describeApi` is handed in by the composition root: the document describes the whole app
 * router, which contains this one, so the module cannot import what it describes.
 */
export function createSystemRouter<Document>(describeApi: () => Document) {
  return router({
    health: publicProcedure.meta({ ...rest('GET', '/health'), public: true }).query(health),
    ready: publicProcedure.meta({ ...rest('GET', '/ready', { problems: ['UNAVAILABLE'] }), public: true }).query(ready),
    openapi: publicProcedure
      .meta({ ...rest('GET', '/openapi.json', { summary: 'The OpenAPI 3.1 document of this API' }), public: true })
      .query(async () => describeApi()),
  });
}
