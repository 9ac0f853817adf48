import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { ThemeProvider, useTheme } from './features/theme/theme-provider';
import { useToasterWanted } from './lib/toast';
import { type ApiClient, TRPCProvider } from './lib/trpc';

// Loaded with the first toast: until then it would draw nothing (see lib/toast.ts).
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

function ThemedToaster() {
  const { resolved } = useTheme();
  if (!useToasterWanted()) return null;
  return (
    <Suspense fallback={null}>
      <Toaster theme={resolved} position="bottom-right" richColors closeButton />
    </Suspense>
  );
}

export interface AppProvidersProps {
  queryClient: QueryClient;
  apiClient: ApiClient;
  children: ReactNode;
}

/** Everything a page needs around it; tests mount the same providers around a memory router. */
export function AppProviders({ queryClient, apiClient, children }: AppProvidersProps) {
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider queryClient={queryClient} trpcClient={apiClient}>
          {children}
          <ThemedToaster />
        </TRPCProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
