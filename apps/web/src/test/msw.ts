import { HttpResponse, http, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';

/** The network the component tests talk to; each test adds the handlers it needs. */
export const server = setupServer();

/**
 * Matches one tRPC procedure on any origin; the query string (`?batch=1&input=…`) is ignored.
 * Queries fired in the same tick share one request (`/api/trpc/a,b`), answered by one handler.
 */
export const trpcPath = (procedure: string) => `*/api/trpc/${procedure}`;

export function trpcResult(data: JsonBodyType) {
  return HttpResponse.json([{ result: { data } }]);
}

export const trpc = {
  query: (procedure: string, resolve: () => Response | Promise<Response>, options?: { once?: boolean }) =>
    http.get(trpcPath(procedure), resolve, options),
};
