import { refusedJsonKeyMessage, refusedJsonKeyPath } from '@app/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/**
 * The REST door's JSON parser: Fastify's own (an empty body, broken JSON and the body limit are
 * its refusals), with the keys refused by the contracts' list instead of its own rule, which lets
 * `constructor` through unless it holds a `prototype`: so a body is refused for exactly the keys
 * the OpenAPI document names, and the answer says which one and where.
 */
export function registerJsonBodyParser(app: FastifyInstance) {
  // `ignore`: plain JSON.parse, which makes `__proto__` an own key like any other, for the list to find.
  const parse = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // Text already (parseAs: 'string'); the typings allow a Buffer too.
    parse(req, body.toString(), (error, value) => {
      if (error) return done(error, undefined);
      const path = refusedJsonKeyPath(value);
      if (path === null) return done(null, value);
      done(new AppError('BAD_REQUEST', refusedJsonKeyMessage('The request body', path)), undefined);
    });
  });
}
