import { SCIM_MEDIA_TYPE } from '@app/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { logError } from '../logger.js';
import { scimContext } from './scim-context.js';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.js';
import { rootSearch } from './scim-root-search.js';
import { invalidSyntax, ScimError } from './scim-error.js';
import { toScimError } from './scim-errors.js';
import { registerScimGroups } from './groups/scim-groups.routes.js';
import { type EnterpriseMapping, enterpriseMappingFor } from './users/scim-enterprise.js';
import { registerScimUsers } from './users/scim-users.routes.js';

export const SCIM_PREFIX = '/api/scim/v2';

/** A SCIM body is a few levels deep (a User's emails' values: 3); this leaves room and no more. */
const MAX_BODY_DEPTH = 32;

/** Whether `value` nests objects or arrays deeper than `limit`, found without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}

function send(reply: FastifyReply, status: number, body: unknown, etag?: string) {
  if (etag) reply.header('etag', etag);
  return reply.code(status).type(`${SCIM_MEDIA_TYPE}; charset=utf-8`).send(body);
}

/**
 * The SCIM 2.0 door (RFC 7643/7644; issue 39): its own media type, its own error shape, bearer
 * tokens only, and every change through the product's handlers. Everything under the prefix is
 * answered in SCIM's shape, a path it does not know included.
 */
export async function registerScimDoor(app: FastifyInstance, db: Database, config: AppConfig) {
  await app.register(
    async (scope) => {
      // application/scim+json is JSON (RFC 7644 §3.1); application/json is taken too, as clients send either.
      const parseJson = app.getDefaultJsonParser('error', 'error');
      scope.addContentTypeParser(SCIM_MEDIA_TYPE, { parseAs: 'string' }, parseJson);
      // A body nested deeper than any SCIM resource is refused before anything reads it: walking
      // it (attribute names, a PATCH's operations) must never overflow the stack.
      scope.addHook('preHandler', async (req) => {
        if (nestedDeeperThan(req.body, MAX_BODY_DEPTH)) {
          throw invalidSyntax(`The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`);
        }
      });
      scope.setErrorHandler((error, req, reply) => {
        const scim = toScimError(error);
        logError(req.log, error, scim.status);
        if (scim.status === 401) reply.header('www-authenticate', 'Bearer realm="scim"');
        return send(reply, scim.status, scim.toBody());
      });
      scope.setNotFoundHandler((req, reply) =>
        send(
          reply,
          404,
          new ScimError(404, `No SCIM endpoint answers ${req.method} ${req.url.split('?')[0]}.`).toBody(),
        ),
      );
      const contextOf = (req: FastifyRequest) => scimContext(db, config, req);
      scope.get('/ServiceProviderConfig', async (req, reply) =>
        send(reply, 200, serviceProviderConfig((await contextOf(req)).baseUrl)),
      );
      // Discovery reads the enterprise mapping as the caller sees it: what it lists is what works.
      const discovered = async <T>(req: FastifyRequest, of: (baseUrl: string, m: EnterpriseMapping) => T) => {
        const ctx = await contextOf(req);
        return of(ctx.baseUrl, await enterpriseMappingFor(ctx.db, ctx.actor));
      };
      scope.get('/ResourceTypes', async (req, reply) => send(reply, 200, listOf(await discovered(req, resourceTypes))));
      scope.get<{ Params: { id: string } }>('/ResourceTypes/:id', async (req, reply) => {
        const found = (await discovered(req, resourceTypes)).find((r) => r.id === req.params.id);
        if (!found) throw new ScimError(404, `No resource type "${req.params.id}".`);
        return send(reply, 200, found);
      });
      scope.get('/Schemas', async (req, reply) => send(reply, 200, listOf(await discovered(req, schemas))));
      scope.get<{ Params: { id: string } }>('/Schemas/:id', async (req, reply) => {
        const found = (await discovered(req, schemas)).find((s) => s.id === req.params.id);
        if (!found) throw new ScimError(404, `No schema "${req.params.id}".`);
        return send(reply, 200, found);
      });
      scope.post('/.search', async (req, reply) => send(reply, 200, await rootSearch(await contextOf(req), req.body)));
      registerScimUsers(scope, contextOf, send);
      registerScimGroups(scope, contextOf, send);
      // Every other GET under the prefix is a SCIM 404 too (the SPA's static files would take it otherwise).
      scope.get('/*', async (req) => {
        await contextOf(req);
        throw new ScimError(404, `No SCIM endpoint answers GET ${req.url.split('?')[0]}.`);
      });
    },
    { prefix: SCIM_PREFIX },
  );
}

const listOf = <T>(resources: T[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
  totalResults: resources.length,
  itemsPerPage: resources.length,
  startIndex: 1,
  Resources: resources,
});
