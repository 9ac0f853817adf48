import type { FastifyInstance } from 'fastify';
import { request } from './http.js';

/** The users write routes as a caller with `token` would use them. */
export function usersApi(app: FastifyInstance, token: string) {
  const r = request(app, { token });
  return {
    create: (body: Record<string, unknown>) => r.post('/api/users', body),
    edit: (id: number) => r.get(`/api/users/${id}/edit`),
    update: (id: number, body: Record<string, unknown>) => r.put(`/api/users/${id}`, body),
    setActive: (id: number, active: boolean) => r.patch(`/api/users/${id}/active`, { active }),
    remove: (id: number) => r.delete(`/api/users/${id}`),
    restore: (id: number) => r.post(`/api/users/${id}/restore`, {}),
    forceDelete: (id: number) => r.delete(`/api/users/${id}/force`),
    bulk: (body: Record<string, unknown>) => r.post('/api/users/bulk', body),
    show: (id: number, query = '') => r.get(`/api/users/${id}${query}`),
    list: (query = '') => r.get(`/api/users${query}`),
  };
}

/** PUT body from the edit data, with changes on top: what the edit form sends. */
export async function editedBody(api: ReturnType<typeof usersApi>, id: number, changes: Record<string, unknown>) {
  const { item } = (await api.edit(id)).json();
  return { name: item.name, email: item.email, roles_ids: item.roles_ids, version: item.version, ...changes };
}
