import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../src/db/database.js';
import { roleVersionOf } from '../../src/modules/roles/roles.item.js';
import { request } from './http.js';

export type Door = 'rest' | 'trpc';
export const DOORS: readonly Door[] = ['rest', 'trpc'];

/** An answer of either door in one shape: its status, and the problem's members or the result. */
export interface Answer {
  status: number;
  code?: string;
  detail?: string;
  errors?: Record<string, string[]>;
  permission?: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever the answer holds
  data?: any;
}

export function answerOf(res: LightMyRequestResponse, door: Door): Answer {
  const status = res.statusCode;
  if (status === 204 || res.body === '') return { status };
  const body = res.json();
  if (door === 'rest') {
    return status >= 400
      ? { status, code: body.code, detail: body.detail, errors: body.errors, permission: body.permission }
      : { status, data: body };
  }
  if (body.error) {
    const { code, errors, permission } = body.error.data ?? {};
    return { status, code, detail: body.error.message, errors, permission };
  }
  return { status, data: body.result?.data };
}

/** The role writes through one door, answered as {@link Answer}s. */
export function rolesApi(app: FastifyInstance, token: string, door: Door) {
  const caller = request(app, { token });
  const send = async (res: Promise<LightMyRequestResponse>) => answerOf(await res, door);
  return {
    create: (body: object) =>
      send(door === 'rest' ? caller.post('/api/roles', body) : caller.post('/api/trpc/roles.create', body)),
    update: (id: number, body: object) =>
      send(
        door === 'rest' ? caller.put(`/api/roles/${id}`, body) : caller.post('/api/trpc/roles.update', { id, ...body }),
      ),
    remove: (id: number, detach?: boolean) =>
      send(
        door === 'rest'
          ? caller.delete(`/api/roles/${id}${detach === undefined ? '' : `?detach=${detach}`}`)
          : caller.post('/api/trpc/roles.delete', { id, ...(detach === undefined ? {} : { detach }) }),
      ),
  };
}

/** The status a door answers a successful write with. */
export const doneStatus = (door: Door, op: 'create' | 'update' | 'delete') =>
  door === 'trpc' ? 200 : op === 'create' ? 201 : op === 'delete' ? 204 : 200;

/** A role as the database holds it: its version and the names of the permissions it grants, sorted. */
export async function roleState(db: Database, id: number) {
  const role = await db.models.Role.findByPk(id, {
    include: [{ association: 'permissions', attributes: ['name'], through: { attributes: [] } }],
  });
  if (!role) return null;
  const permissions = ((role.get('permissions') as Array<{ name: string }> | undefined) ?? []).map((p) => p.name);
  return {
    name: role.name,
    description: role.description ?? null,
    version: roleVersionOf(role),
    permissions: permissions.sort(),
  };
}
