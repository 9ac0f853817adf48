import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SCIM_SCHEMAS, type ScimListResponse, type ScimUser } from '@app/contracts';
import { userPatchRefusal } from '../../domain/scim.access.js';
import { usersFilter } from '../filter/users-filter.js';
import { applyUserPatch } from '../patch/user-patch.js';
import { requireScimPermission, type ScimContext } from '../scim-context.js';
import { readListParams, searchParams } from '../scim-list-query.js';
import { type ContextOf, ifMatchOf, listPlan, listResponse, type Send } from '../scim-listing.js';
import { project } from '../scim-projection.js';
import { carriesEnterprise, readUserBody } from './scim-user.input.js';
import { enterpriseMappingFor, extensionsOf } from './scim-enterprise.js';
import { toScimUser, userEtag } from './scim-user.mapping.js';
import { rolesByUser, scimRowsByIds, scimUserById, scimUsersPage } from './scim-users.read.js';
import { changeScimUser, createScimUser, deleteScimUser } from './scim-users.write.js';

/** sortBy → the column it orders by. */
const SORTS = new Map<string, string>([
  ['id', 'id'],
  ['username', 'user_name_key'],
  ['name.formatted', 'name'],
  ['displayname', 'name'],
  ['name', 'name'],
  ['emails', 'email'],
  ['emails.value', 'email'],
  ['meta.created', 'created_at'],
  ['meta.lastmodified', 'updated_at'],
]);

export async function listUsers(ctx: ScimContext, query: unknown): Promise<ScimListResponse<Partial<ScimUser>>> {
  requireScimPermission(ctx, 'users.view');
  const params = readListParams(query);
  const filter = params.filter === null ? null : usersFilter(ctx.db, params.filter);
  const { start, order } = listPlan(params, { name: 'users', urn: SCIM_SCHEMAS.user, sorts: SORTS });
  const page = await scimUsersPage(ctx.db, filter, order, start, params.count);
  const users = await scimUsers(ctx, page.ids);
  return listResponse(
    params,
    page,
    users.map((r) => project(r, params.attributes, params.excludedAttributes)),
  );
}

/** The users `ids` name as SCIM Users: their rows, roles and enterprise extension, a read each for all. */
async function scimUsers(ctx: ScimContext, ids: readonly number[]): Promise<ScimUser[]> {
  const mapping = await enterpriseMappingFor(ctx.db, ctx.actor);
  const [rows, roles, extensions] = await Promise.all([
    scimRowsByIds(ctx.db, ids),
    rolesByUser(ctx.db, ids),
    extensionsOf(ctx.db, mapping, ids, ctx.baseUrl),
  ]);
  return rows.map((row) => toScimUser(row, roles.get(row.id) ?? [], ctx.baseUrl, extensions.get(row.id) ?? null));
}

async function oneUser(ctx: ScimContext, id: string) {
  const { row } = await scimUserById(ctx.db, id);
  const [resource] = await scimUsers(ctx, [row.id]);
  return { resource: resource as ScimUser, etag: userEtag(row) };
}

/** /Users (RFC 7644 §3.3–3.6): list, read, create, replace, patch, delete. */
export function registerScimUsers(scope: FastifyInstance, contextOf: ContextOf, send: Send) {
  type WithId = { Params: { id: string } };
  const shown = (req: FastifyRequest, resource: ScimUser) => {
    const params = readListParams(req.query);
    return project(resource, params.attributes, params.excludedAttributes);
  };
  scope.get('/Users', async (req, reply) => send(reply, 200, await listUsers(await contextOf(req), req.query)));
  scope.post('/Users/.search', async (req, reply) =>
    send(reply, 200, await listUsers(await contextOf(req), searchParams(req.body))),
  );
  scope.get<WithId>('/Users/:id', async (req, reply) => {
    const ctx = await contextOf(req);
    requireScimPermission(ctx, 'users.view');
    const { resource, etag } = await oneUser(ctx, req.params.id);
    return send(reply, 200, shown(req, resource), etag);
  });
  scope.post('/Users', async (req, reply) => {
    const ctx = await contextOf(req);
    requireScimPermission(ctx, 'users.create');
    const id = await createScimUser(ctx, readUserBody(req.body, { active: true }));
    const { resource, etag } = await oneUser(ctx, String(id));
    reply.header('location', resource.meta.location);
    return send(reply, 201, shown(req, resource), etag);
  });
  scope.put<WithId>('/Users/:id', async (req, reply) => {
    const ctx = await contextOf(req);
    requireScimPermission(ctx, 'users.update');
    await changeScimUser(ctx, req.params.id, ifMatchOf(req), (current) => {
      const next = readUserBody(req.body, { active: current.active });
      return carriesEnterprise(req.body) ? next : { ...next, enterprise: current.enterprise };
    });
    const { resource, etag } = await oneUser(ctx, req.params.id);
    return send(reply, 200, shown(req, resource), etag);
  });
  scope.patch<WithId>('/Users/:id', async (req, reply) => {
    const ctx = await contextOf(req);
    // Which permission a PATCH needs depends on what it changes (users.setActive alone for the
    // status); one holding neither is refused before its body or the user is read.
    const lacking = userPatchRefusal(ctx.actor);
    if (lacking) requireScimPermission(ctx, lacking);
    await changeScimUser(ctx, req.params.id, ifMatchOf(req), (current) => applyUserPatch(current, req.body));
    const { resource, etag } = await oneUser(ctx, req.params.id);
    return send(reply, 200, shown(req, resource), etag);
  });
  scope.delete<WithId>('/Users/:id', async (req, reply) => {
    const ctx = await contextOf(req);
    await deleteScimUser(ctx, req.params.id, ifMatchOf(req));
    return reply.code(204).send();
  });
}
