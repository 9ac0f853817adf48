import { SCIM_SCHEMAS, type ScimGroup, type ScimListResponse } from '@app/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { groupsFilter } from '../filter/groups-filter.js';
import { planGroupPatch } from '../patch/group-patch.js';
import { requireScimPermission, type ScimContext } from '../scim-context.js';
import { invalidValue } from '../scim-error.js';
import { decodeCursor, encodeCursor, readListParams, type ScimListParams, searchParams } from '../scim-list-query.js';
import { project, wants } from '../scim-projection.js';
import { groupById, groupEtag, groupRowsByIds, groupsPage, membersOfGroups, toScimGroup } from './scim-groups.read.js';
import { changeGroup, createGroup, deleteGroup, readGroupBody } from './scim-groups.write.js';

type Send = (reply: FastifyReply, status: number, body: unknown, etag?: string) => FastifyReply;
type ContextOf = (req: FastifyRequest) => Promise<ScimContext>;

const SORTS = new Map([
  ['id', 'id'],
  ['displayname', 'name'],
  ['meta.created', 'created_at'],
  ['meta.lastmodified', 'updated_at'],
]);

function orderOf(params: ScimListParams): [string, 'ASC' | 'DESC'][] {
  const dir = params.sortOrder === 'descending' ? 'DESC' : 'ASC';
  if (params.sortBy === null) return [['id', 'ASC']];
  const column = SORTS.get(params.sortBy.toLowerCase().replace(`${SCIM_SCHEMAS.group.toLowerCase()}:`, ''));
  if (!column) throw invalidValue(`sortBy "${params.sortBy}" is not an attribute groups can be sorted by.`);
  return column === 'id'
    ? [['id', dir]]
    : [
        [column, dir],
        ['id', dir],
      ];
}

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
  const byCursor = params.cursor !== null;
  if (byCursor && params.sortBy !== null) {
    throw invalidValue('A cursor walks the groups in id order: leave sortBy out, or page by startIndex.');
  }
  const start = byCursor ? { afterId: decodeCursor(params.cursor as string) } : { offset: params.startIndex - 1 };
  const order: [string, 'ASC' | 'DESC'][] = byCursor ? [['id', 'ASC']] : orderOf(params);
  const page = await groupsPage(ctx.db, where, order, start, params.count);
  const found = await resources(ctx, page.ids, params);
  const last = page.ids.at(-1);
  return {
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults: page.total,
    itemsPerPage: found.length,
    ...(byCursor ? {} : { startIndex: params.startIndex }),
    ...(byCursor && page.more && last !== undefined ? { nextCursor: encodeCursor(last) } : {}),
    Resources: found,
  };
}

const ifMatchOf = (req: FastifyRequest) => {
  const v = req.headers['if-match'];
  return typeof v === 'string' ? v : undefined;
};

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
    const id = await createGroup(ctx, readGroupBody(req.body));
    return answer(ctx, req, reply, String(id), 201);
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
