import { HttpResponse, http } from 'msw';
import { server } from './msw';

/** What one REST route answers: a status and a body (none for 204). */
export interface RestReply {
  status: number;
  body?: unknown;
}

export type RestResolver = (body: unknown) => RestReply | Promise<RestReply>;

export const restOk = (body: unknown = {}): RestReply => ({ status: 200, body });

/** A problem+json refusal as the REST door answers it (contract §4). */
export function problem(status: number, code: string, detail: string, errors?: Record<string, string[]>): RestReply {
  return { status, body: { type: `about:blank`, title: code, status, code, detail, ...(errors ? { errors } : {}) } };
}

/**
 * Answers REST routes (`'PUT /account'` → reply) at the network layer, as `mockTrpc` does for
 * procedures; `calls` records each request's method, path and JSON body.
 */
export function mockRest(table: Record<string, RestResolver | RestReply>) {
  const calls: { route: string; body: unknown }[] = [];
  const handlers = Object.entries(table).map(([route, entry]) => {
    const [method = 'GET', path = '/'] = route.split(' ');
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    return http[verb](`*/api${path}`, async ({ request }) => {
      const text = await request.text();
      const body: unknown = text ? JSON.parse(text) : undefined;
      calls.push({ route, body });
      const reply = typeof entry === 'function' ? await entry(body) : entry;
      if (reply.body === undefined) return new HttpResponse(null, { status: reply.status });
      return HttpResponse.json(reply.body as Record<string, unknown>, { status: reply.status });
    });
  });
  server.use(...handlers);
  return { calls, bodiesOf: (route: string) => calls.filter((call) => call.route === route).map((call) => call.body) };
}
