import type { AppRouter } from '@app/api/router';
import { createTRPCClient, httpBatchLink, type TRPCClient } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { apiUrl } from './api-url';

/**
 * Typed tRPC + TanStack Query bindings for the whole SPA.
 * - `useTRPC()` gives the options proxy: `useQuery(trpc.system.ready.queryOptions())`,
 *   `useMutation(trpc.x.y.mutationOptions())`, `queryClient.invalidateQueries(trpc.x.pathFilter())`.
 * - `useTRPCClient()` gives the raw client for imperative calls outside the cache.
 */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export type ApiClient = TRPCClient<AppRouter>;

export const TRPC_PATH = '/api/trpc';

export function createApiClient(): ApiClient {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: apiUrl(TRPC_PATH),
        // The session cookie is same-origin only; say so rather than rely on the default.
        fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
      }),
    ],
  });
}
