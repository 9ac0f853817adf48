import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app-providers';
import { createQueryClient } from './lib/query-client';
import { createApiClient } from './lib/trpc';
import { createAppRouter } from './router';

export function App() {
  // Created once per mount, not per render, so the cache and the router survive re-renders.
  const [queryClient] = useState(createQueryClient);
  const [apiClient] = useState(createApiClient);
  const [router] = useState(createAppRouter);

  return (
    <AppProviders queryClient={queryClient} apiClient={apiClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
