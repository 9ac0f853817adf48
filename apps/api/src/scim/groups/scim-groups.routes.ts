import { SCIM_SCHEMAS, type ScimGroup, type ScimListResponse } from '@app/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { groupsFilter } from '../filter/groups-filter.js';
import { planGroupPatch } from '../patch/group-patch.js';
import { requireScimPermission, type ScimContext } from '../scim-context.js';
import { readListParams, type ScimListParams, searchParams } from '../scim-list-query.js';
import { type ContextOf, ifMatchOf, listPlan, listResponse, type Send } from '../scim-listing.js';
import { project, wants } from '../scim-projection.js';
import { groupScimId } from '../scim-group-id.js';
import { groupById, groupEtag, groupRowsByIds, groupsPage, membersOfGroups, toScimGroup } from './scim-groups.read.js';
import { changeGroup, createGroup, deleteGroup, readGroupBody } from './scim-groups.write.js';

const SORTS = new Map([
  ['id', 'id'],
  ['displayname', 'name'],
  ['meta.created', 'created_at'],
  ['meta.lastmodified', 'updated_at'],
]);

/** Groups as asked: `members` read only when the answer shows them (Entra excludes them). */
async function resources(ctx: ScimContext, ids: number[], params: ScimListParams): Promise<Partial<ScimGroup>[]> {
  const withMembers = wants('members', params.attributes, params.excludedAttributes);
  const [rows, members] = await Promise.all([
    groupRowsByIds(ctx.db, ids),
    withMembers ? membersOfGroups(ctx.db, ids) : Promise.resolve(null),
  ]);
  return rows.map((row) =>
    project(toScimGroup(row, members?.get(row.id) ?? null, ctx.baseUrl), params.attributes, params.excludedAttributes),
  );
}

export async function listGroups(ctx: ScimContext, query: unknown): Promise<ScimListResponse<Partial<ScimGroup>>> {
  requireScimPermission(ctx, 'roles.view');
  const params = readListParams(query);
  const where = params.filter === null ? null : groupsFilter(ctx.db, params.filter);
  const { start, order } = listPlan(params, { name: 'groups', urn: SCIM_SCHEMAS.group, sorts: SORTS });
  const page = await groupsPage(ctx.db, where, order, start, params.count);
  return listResponse(params, page, await resources(ctx, page.ids, params));
}

/** /Groups (RFC 7644 §3.3–3.6): a group is a role, its members the users holding it. */
export function registerScimGroups(scope: FastifyInstance, contextOf: ContextOf, send: Send) {
  type WithId = { Params: { id: string } };
  const answer = async (ctx: ScimContext, req: FastifyRequest, reply: FastifyReply, id: string, status: number) => {
    const row = await groupById(ctx.db, id);
    const params = readListParams(req.query);
    const [resource] = await resources(ctx, [row.id], params);
    if (status === 201 && resource?.meta) reply.header('location', resource.meta.location);
    return send(reply, status, resource, groupEtag(row));
  };
  scope.get('/Groups', async (req, reply) => send(reply, 200, await listGroups(await contextOf(req), req.query)));
  scope.post('/Groups/.search', async (req, reply) =>
    send(reply, 200, await listGroups(await contextOf(req), searchParams(req.body))),
  );
  scope.get<WithId>('/Groups/:id', async (req, reply) => {
    const ctx = await contextOf(req);
    requireScimPermission(ctx, 'roles.view');
    return answer(ctx, req, reply, req.params.id, 200);
  });
  scope.post('/Groups', async (req, reply) => {
    const ctx = await contextOf(req);
    requireScimPermission(ctx, 'roles.create');
    const roleId = await createGroup(ctx, readGroupBody(req.body));
    return answer(ctx, req, reply, groupScimId(roleId), 201);
  });
  scope.put<WithId>('/Groups/:id', async (req, reply) => {
    const ctx = await contextOf(req);
    const body = readGroupBody(req.body);
    // A PUT that leaves `members` out keeps them; `members: []` empties the group (docs/decisions.md).
    const members = body.members === null ? [] : [{ op: 'replace' as const, ids: body.members }];
    await changeGroup(ctx, req.params.id, ifMatchOf(req), { name: body.name, externalId: body.externalId, members });
    return answer(ctx, req, reply, req.params.id, 200);
  });
  scope.patch<WithId>('/Groups/:id', async (req, reply) => {
    const ctx = await contextOf(req);
    const plan = planGroupPatch(req.body);
    const name =
      plan.displayName === undefined
        ? undefined
        : readGroupBody({
            schemas: [SCIM_SCHEMAS.group],
            displayName: plan.displayName,
          }).name;
    await changeGroup(ctx, req.params.id, ifMatchOf(req), {
      ...(name !== undefined ? { name } : {}),
      ...(plan.externalId !== undefined ? { externalId: plan.externalId } : {}),
      members: plan.members,
    });
    return answer(ctx, req, reply, req.params.id, 200);
  });
  scope.delete<WithId>('/Groups/:id', async (req, reply) => {
    await deleteGroup(await contextOf(req), req.params.id, ifMatchOf(req));
    return reply.code(204).send();
  });
}
