import type { FastifyInstance } from 'fastify';

const BASE = '/api/scim/v2';

/** A SCIM client as identity providers are: a bearer token, application/scim+json both ways. */
export function scimClient(app: FastifyInstance, token: string | null, extra: Record<string, string> = {}) {
  const headers = (more: Record<string, string> = {}) => ({
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    accept: 'application/scim+json',
    ...extra,
    ...more,
  });
  const send = (method: 'POST' | 'PUT' | 'PATCH', path: string, body: unknown, more?: Record<string, string>) =>
    app.inject({
      method,
      url: `${BASE}${path}`,
      headers: { ...headers(more), 'content-type': 'application/scim+json' },
      payload: JSON.stringify(body),
    });
  return {
    get: (path: string, more?: Record<string, string>) =>
      app.inject({ method: 'GET', url: `${BASE}${path}`, headers: headers(more) }),
    post: (path: string, body: unknown, more?: Record<string, string>) => send('POST', path, body, more),
    put: (path: string, body: unknown, more?: Record<string, string>) => send('PUT', path, body, more),
    patch: (path: string, body: unknown, more?: Record<string, string>) => send('PATCH', path, body, more),
    delete: (path: string, more?: Record<string, string>) =>
      app.inject({ method: 'DELETE', url: `${BASE}${path}`, headers: headers(more) }),
  };
}

/** `?filter=…` with the filter encoded as a client sends it. */
export const filterQuery = (filter: string, more = '') => `?filter=${encodeURIComponent(filter)}${more}`;
